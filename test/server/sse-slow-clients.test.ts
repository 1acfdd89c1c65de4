import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureDist } from '../helpers/ensure-dist.js';
import { tempDir } from '../helpers/temp-dir.js';
import { waitFor } from './server-fixtures.js';

beforeAll(ensureDist, 120_000);

const children: ChildProcess[] = [];
const sockets: net.Socket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

// A loop whose every visit ends with a 100 KB note (from the scenario): about 10 MB of events.
const LOOP = `digraph loop {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  a [prompt="A", max_visits=100]
  start -> a
  a -> a [condition="outcome=success"]
  a -> exit [condition="outcome=fail"]
}`;
const SCENARIO = { nodes: { a: [{ outcome: 'success', notes: 'n'.repeat(100_000) }] } };
const CLIENTS = 40;
const MiB = 1024 * 1024;

async function serve(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dataDir], {
    cwd: tempDir(),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  children.push(child);
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match?.[1]) resolve(match[1]);
    });
    child.on('exit', () => reject(new Error(`serve exited: ${stderr}`)));
  });
  return { child, url };
}

const rssBytes = (pid: number): number => {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? Number.NaN) * 1024;
};

/** A client that asks for the whole event stream and never reads a byte of the answer. */
function stalledClient(url: URL, id: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port), readable: true }, () => {
      socket.pause();
      socket.write(
        `GET /pipelines/${id}/events HTTP/1.1\r\nHost: ${url.host}\r\nLast-Event-ID: 0\r\nAccept: text/event-stream\r\n\r\n`,
      );
      resolve(socket);
    });
    socket.on('error', reject);
    sockets.push(socket);
  });
}

async function healthzMs(url: string): Promise<number> {
  const started = Date.now();
  const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) });
  expect(response.status).toBe(200);
  return Date.now() - started;
}

describe('SSE clients that never read', () => {
  it('hold a bounded backlog each, in bytes, and the server keeps answering /healthz', async () => {
    const dataDir = tempDir('attractor-sse-slow-');
    const { child, url } = await serve(dataDir);
    const submitted = await fetch(`${url}/pipelines`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ dot_source: LOOP, scenario: SCENARIO }),
    });
    expect(submitted.status).toBe(201);
    const { id } = (await submitted.json()) as { id: string };
    await waitFor(async () => {
      const run = (await (await fetch(`${url}/pipelines/${id}`)).json()) as { status: string };
      return run.status === 'completed' ? run : undefined;
    }, 'the loop to finish');
    const pid = child.pid ?? 0;
    const before = rssBytes(pid);
    const clients = await Promise.all(Array.from({ length: CLIENTS }, () => stalledClient(new URL(url), id)));
    // Let the server queue what it will for them.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await healthzMs(url)).toBeLessThan(3_000);
    const grown = rssBytes(pid) - before;
    // Unbounded, each client would hold the run's ~10 MB of events (400 MB in all); bounded, at most
    // the 1 MiB backlog, one message and the socket's buffers each.
    expect(grown).toBeLessThan(CLIENTS * 2.5 * MiB);
    // A client that has not read its backlog when the grace period (10 s) ends is disconnected: reading
    // now, it gets what the kernel held and then the end of the connection (a stream merely closed
    // would leave the keep-alive connection open).
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    const closed = await Promise.all(
      clients.map(
        (socket) =>
          new Promise<boolean>((resolve) => {
            if (socket.destroyed) resolve(true);
            socket.once('close', () => resolve(true));
            socket.on('data', () => {});
            socket.resume();
            setTimeout(() => resolve(false), 5_000).unref();
          }),
      ),
    );
    expect(closed.every(Boolean)).toBe(true);
    expect(await healthzMs(url)).toBeLessThan(3_000);
  }, 90_000);
});
