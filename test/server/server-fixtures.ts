import fs from 'node:fs';
import type { ServerOptionsInput } from '../../src/server/server-options.js';
import { type RunningServer, startServer } from '../../src/server/start-server.js';
import { tempDir } from '../helpers/temp-dir.js';

export const GATE_PIPELINE = `digraph gate {
  graph [goal="Ship a thing"]
  start [shape=Mdiamond]
  plan [prompt="Plan $goal"]
  review [shape=hexagon, label="Ship it?"]
  ship [prompt="Ship"]
  rework [prompt="Rework"]
  exit [shape=Msquare]
  start -> plan -> review
  review -> ship [label="[S] Ship"]
  review -> rework [label="[R] Rework"]
  ship -> exit
  rework -> exit
}
`;

export const LINEAR_PIPELINE = `digraph linear {
  start [shape=Mdiamond]
  a [prompt="A"]
  b [prompt="B"]
  exit [shape=Msquare]
  start -> a -> b -> exit
}
`;

export interface SseMessage {
  id?: number;
  data: Record<string, unknown>;
}

/** Reads an SSE response until `until` says stop (or the stream ends); returns the messages seen. */
export async function readSse(
  url: string,
  init: RequestInit & { until?: (m: SseMessage, all: SseMessage[]) => boolean } = {},
): Promise<SseMessage[]> {
  const controller = new AbortController();
  const response = await fetch(url, { ...init, signal: controller.signal });
  if (!response.ok || !response.body) throw new Error(`SSE ${response.status}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const messages: SseMessage[] = [];
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return messages;
      buffer += decoder.decode(value, { stream: true });
      const blocks = buffer.split('\n\n');
      buffer = blocks.pop() ?? '';
      for (const block of blocks) {
        const lines = block.split('\n');
        const data = lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6));
        if (data.length === 0) continue;
        const idLine = lines.find((l) => l.startsWith('id: '));
        const message: SseMessage = {
          ...(idLine ? { id: Number(idLine.slice(4)) } : {}),
          data: JSON.parse(data.join('\n')) as Record<string, unknown>,
        };
        messages.push(message);
        if (init.until?.(message, messages)) return messages;
      }
    }
  } finally {
    controller.abort();
  }
}

export async function waitFor<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  what: string,
  ms = 10_000,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export interface TestServer extends RunningServer {
  dataDir: string;
  json(
    method: string,
    route: string,
    body?: unknown,
    headers?: Record<string, string>,
    // biome-ignore lint/suspicious/noExplicitAny: tests read response bodies field by field
  ): Promise<{ status: number; body: any }>;
}

const servers: TestServer[] = [];

export async function testServer(
  options: ServerOptionsInput = {},
  extra: Parameters<typeof startServer>[1] = {},
): Promise<TestServer> {
  // Removed when the test ends even if the server does not start (a refused option).
  const dataDir = options.dataDir ?? tempDir('attractor-serve-');
  const server = await startServer({ port: 0, ...options, dataDir }, extra);
  const test: TestServer = {
    ...server,
    dataDir,
    async json(method, route, body, headers = {}) {
      const response = await fetch(`${server.url}${route}`, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
  };
  servers.push(test);
  return test;
}

export async function closeServers(): Promise<void> {
  for (const s of servers.splice(0)) {
    await s.manager.drain();
    await s.close();
    fs.rmSync(s.dataDir, { recursive: true, force: true });
  }
}
