import type { PipelineEvent } from '../shared/pipeline-event.js';

type StreamMessage = { kind: 'done'; status?: string } | { kind: 'stream.dropped' };

// The token lives in this tab's sessionStorage and travels as a header, never in a cookie or a URL
// (docs/decisions/0103-server-answers-only-its-own-names.md).
const TOKEN_KEY = 'attractor.token';

export const token = {
  get: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  set: (value: string): void => sessionStorage.setItem(TOKEN_KEY, value),
  clear: (): void => sessionStorage.removeItem(TOKEN_KEY),
};

/**
 * A `#token=…` link signs the tab in; the token is taken out of the address bar at once. True when the
 * fragment held one (the app then signs in with it).
 */
export function takeTokenFromFragment(
  where: Pick<Location, 'hash' | 'pathname' | 'search'> = location,
  addressBar: Pick<History, 'replaceState'> = history,
  store: Pick<typeof token, 'set'> = token,
): boolean {
  const match = where.hash.match(/token=([^&]+)/);
  if (!match?.[1]) return false;
  store.set(decodeURIComponent(match[1]));
  addressBar.replaceState(null, '', where.pathname + where.search);
  return true;
}

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
}

/** What a 401 told the app: whether it had sent a token, and where people sign in (if they can). */
export interface Unauthorized {
  hadToken: boolean;
  /** The server's sign-in page (`/signin`) when it has sign-in with OpenID Connect configured. */
  signInPath?: string | undefined;
}

/** Called on every 401: the app forgets the token it had and asks for one, or offers the sign-in page. */
let onUnauthorized: (why: Unauthorized) => void = () => {};
export function whenUnauthorized(handler: (why: Unauthorized) => void): void {
  onUnauthorized = handler;
}

/** The `sign_in` a 401's body names: a path on this server, or nothing. */
export function signInPathOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
  const error: unknown = body.error;
  if (typeof error !== 'object' || error === null || !('sign_in' in error)) return undefined;
  const path: unknown = error.sign_in;
  return typeof path === 'string' && /^\/(?![/\\])/.test(path) ? path : undefined;
}

/** The link to the sign-in page that comes back here (the page and its fragment) once signed in. */
export function signInHref(signInPath: string, here: Pick<Location, 'pathname' | 'search' | 'hash'>): string {
  return `${signInPath}?return_to=${encodeURIComponent(here.pathname + here.search + here.hash)}`;
}

function headers(extra: Record<string, string> = {}): Record<string, string> {
  const t = token.get();
  return { ...(t ? { authorization: `Bearer ${t}` } : {}), ...extra };
}

async function checked(response: Response): Promise<Response> {
  if (response.status === 401) {
    const hadToken = token.get() !== null;
    token.clear();
    const body: unknown = await response.json().catch(() => null);
    onUnauthorized({ hadToken, signInPath: signInPathOf(body) });
    throw new ApiFailure(401, 'UNAUTHORIZED', 'sign in first', body);
  }
  return response;
}

/** A JSON call to this server; an error answer becomes an ApiFailure with the server's message. */
export async function api<T>(route: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const response = await checked(
    await fetch(route, {
      method: init.method ?? 'GET',
      // State changes must say JSON, even without a body (the server's cross-site guard).
      headers: headers(init.method && init.method !== 'GET' ? { 'content-type': 'application/json' } : {}),
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    }),
  );
  const text = await response.text();
  const body: unknown = text ? JSON.parse(text) : null;
  if (!response.ok) {
    const error = (body as { error?: { code?: string; message?: string } } | null)?.error;
    throw new ApiFailure(response.status, error?.code ?? 'HTTP', error?.message ?? response.statusText, body);
  }
  return body as T;
}

/** The SVG drawing of a run's graph. */
export async function fetchSvg(route: string): Promise<string> {
  const response = await checked(await fetch(route, { headers: headers({ accept: 'image/svg+xml' }) }));
  if (!response.ok) throw new ApiFailure(response.status, 'HTTP', response.statusText, null);
  return response.text();
}

export interface StreamHandlers {
  onEvents: (events: PipelineEvent[], lastId: number) => void;
  onDone: (status: string) => void;
}

/**
 * Follows a run's event stream with fetch (EventSource cannot send the token header), from `afterId`;
 * a dropped stream (the server closes a client that fell behind) is reopened from the last id seen.
 * Returns a function that stops following.
 */
export function followEvents(id: string, afterId: number, handlers: StreamHandlers): () => void {
  const controller = new AbortController();
  let lastId = afterId;
  /** True once the run's stream said `done`; false when the connection ended before that. */
  const open = async (): Promise<boolean> => {
    const response = await checked(
      await fetch(`/pipelines/${encodeURIComponent(id)}/events`, {
        headers: headers(lastId > 0 ? { 'last-event-id': String(lastId) } : {}),
        signal: controller.signal,
      }),
    );
    if (!response.ok || !response.body) throw new Error(`events: ${response.status}`);
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return false;
      buffer += decoder.decode(value, { stream: true });
      const blocks = buffer.split('\n\n');
      buffer = blocks.pop() ?? '';
      const batch: PipelineEvent[] = [];
      for (const block of blocks) {
        let data = '';
        for (const line of block.split('\n')) {
          if (line.startsWith('data: ')) data += line.slice(6);
          else if (line.startsWith('id: ')) lastId = Number(line.slice(4)) || lastId;
        }
        if (!data) continue;
        // The stream's own messages (`done`, `stream.dropped`) share it with the run's events.
        const message = JSON.parse(data) as PipelineEvent | StreamMessage;
        if (message.kind === 'done') {
          if (batch.length > 0) handlers.onEvents(batch.splice(0), lastId);
          handlers.onDone(message.status ?? '');
          return true;
        }
        if (message.kind === 'stream.dropped') {
          if (batch.length > 0) handlers.onEvents(batch.splice(0), lastId);
          throw new Error('dropped');
        }
        batch.push(message);
      }
      if (batch.length > 0) handlers.onEvents(batch, lastId);
    }
  };
  const run = async (): Promise<void> => {
    for (let attempt = 0; !controller.signal.aborted; attempt++) {
      try {
        if (await open()) return;
      } catch (error) {
        // Signed out, or no longer allowed to see the run: reopening cannot succeed, and the page says why.
        if (controller.signal.aborted || (error instanceof ApiFailure && [401, 403].includes(error.status)))
          return;
      }
      await new Promise((r) => setTimeout(r, Math.min(5000, 250 * 2 ** attempt)));
    }
  };
  void run();
  return () => controller.abort();
}
