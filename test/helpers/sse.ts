import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP server that answers each request with the next scripted reply and records what it
 * received. The provider fakes (fake-openai-server, fake-gemini-server) add their routes, auth checks
 * and payload builders on top; this file only knows HTTP, JSON and Server-Sent Events.
 */

/** One Server-Sent Event: `event:` is optional, `data` is sent as JSON unless it is already a string. */
export interface SseEvent {
  event?: string;
  data: unknown;
}

export type ScriptedReply =
  | { kind: 'json'; status?: number; headers?: Record<string, string>; body: unknown }
  | { kind: 'text'; status: number; headers?: Record<string, string>; body: string }
  | {
      kind: 'sse';
      events: SseEvent[];
      /** Frame separator; Gemini sends CRLF pairs, OpenAI LF pairs. */
      separator?: string;
      /** Destroy the socket after this many events, mid-body, like a dropped connection. */
      breakAfter?: number;
      /** Stop sending after this many events and keep the connection open, like a stalled server. */
      hangAfter?: number;
      /** Wait between events, so a client sees them arrive one by one. */
      delayMs?: number;
    }
  /** Accept the request and never answer it. */
  | { kind: 'hang' };

export interface RecordedRequest {
  method: string;
  /** Path and query string, e.g. `/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse`. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The JSON body, parsed; the raw text when it is not JSON. */
  body: unknown;
}

/** Decides whether a request may get a scripted reply; a returned reply short-circuits the script. */
export type RequestGate = (request: RecordedRequest) => ScriptedReply | undefined;

export interface ScriptedServer {
  /** `http://127.0.0.1:<port>` without a trailing slash. */
  readonly origin: string;
  readonly requests: RecordedRequest[];
  /** Queue replies, served in order, one per request. */
  enqueue(...replies: ScriptedReply[]): void;
  /** Resolves when the server has received `count` requests in total. */
  waitForRequests(count: number): Promise<void>;
  close(): Promise<void>;
}

/** Formats one SSE frame. */
export function encodeSseEvent(event: SseEvent, separator = '\n\n'): string {
  const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
  const eol = separator === '\r\n\r\n' ? '\r\n' : '\n';
  const head = event.event === undefined ? '' : `event: ${event.event}${eol}`;
  return `${head}data: ${data}${separator}`;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function sendReply(res: ServerResponse, reply: ScriptedReply): Promise<void> {
  switch (reply.kind) {
    case 'hang':
      return;
    case 'json':
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      res.end(JSON.stringify(reply.body));
      return;
    case 'text':
      res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
      res.end(reply.body);
      return;
    case 'sse': {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.flushHeaders();
      let sent = 0;
      for (const event of reply.events) {
        if (reply.breakAfter !== undefined && sent >= reply.breakAfter) {
          // Give the client time to read what was sent, then drop the connection without a final chunk.
          await sleep(20);
          res.socket?.destroy();
          return;
        }
        if (reply.hangAfter !== undefined && sent >= reply.hangAfter) return;
        if (reply.delayMs) await sleep(reply.delayMs);
        res.write(encodeSseEvent(event, reply.separator));
        sent += 1;
      }
      if (reply.breakAfter !== undefined && sent >= reply.breakAfter) {
        await sleep(20);
        res.socket?.destroy();
        return;
      }
      res.end();
      return;
    }
  }
}

/** Starts the server on 127.0.0.1, port 0. */
export async function startScriptedServer(gate: RequestGate = () => undefined): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const queue: ScriptedReply[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];

  const server = createServer((req, res) => {
    void (async () => {
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: parseBody(await readBody(req)),
      };
      requests.push(recorded);
      for (const waiter of waiters.filter((w) => requests.length >= w.count)) waiter.resolve();
      const reply = gate(recorded) ??
        queue.shift() ?? {
          kind: 'json',
          status: 500,
          body: { error: { message: `fake server: no scripted reply for ${recorded.url}` } },
        };
      await sendReply(res, reply);
    })().catch((error: unknown) => {
      res.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    waitForRequests: (count) =>
      requests.length >= count
        ? Promise.resolve()
        : new Promise((resolve) => {
            waiters.push({ count, resolve });
          }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
