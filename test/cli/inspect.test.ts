import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { runCli } from './run-cli.js';
import { tempPipelines } from './temp-pipelines.js';

const tmp = tempPipelines();
afterAll(() => tmp.cleanup());

// The tool node is a real process that keeps the run going long enough for a client to attach.
const pipeline = tmp.write(
  'slow.dot',
  `digraph slow {
  start [shape=Mdiamond]
  wait [shape=parallelogram, tool_command="sleep 1"]
  check
  exit [shape=Msquare]
  start -> wait -> check -> exit
}`,
);
const scenario = tmp.write('scenario.json', '{}');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Connects as soon as the run's server listens; `received` gets every message from the first. */
async function attach(port: number, received: string[] = []): Promise<WebSocket> {
  for (;;) {
    const socket = new WebSocket(`ws://127.0.0.1:${port}`);
    socket.on('message', (data) => received.push(String(data)));
    const opened = await new Promise<boolean>((resolve) => {
      socket.once('open', () => resolve(true));
      socket.once('error', () => resolve(false));
    });
    if (opened) return socket;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const run = (port: number, extra: string[] = []) =>
  runCli(
    [
      'run',
      pipeline,
      '--scenario',
      scenario,
      '--logs-dir',
      path.join(tmp.dir, `run-${port}`),
      '--inspect',
      String(port),
      ...extra,
    ],
    { cwd: tmp.dir },
  );

interface Inspected {
  type: string;
  sessionId: string;
  parentId?: string;
  name?: string;
  snapshot?: { status?: string; context?: { steps?: number } };
}

describe('attractor run --inspect', () => {
  it('streams every inspection event in order to a local WebSocket client, then ends the connection', async () => {
    const port = await freePort();
    const log = path.join(tmp.dir, 'inspect.jsonl');
    const finished = run(port, ['--inspect-log', log]);
    const received: string[] = [];
    const socket = await attach(port, received);
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    const result = await finished;
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`inspector at http://127.0.0.1:${port}`);
    expect(await closed).toBe(1000);

    // The client saw the run from its first event (replayed) to its last, in order: the same lines the log has.
    const logged = readFileSync(log, 'utf8').trim().split('\n');

    expect(received).toEqual(logged);
    const events = received.map((line) => JSON.parse(line) as Inspected);
    const root = events[0];
    expect(root).toMatchObject({ type: '@xstate.actor', name: 'pipeline' });
    expect(root?.parentId).toBeUndefined();
    const rootSnapshots = events.filter(
      (e) => e.type === '@xstate.snapshot' && e.sessionId === root?.sessionId,
    );
    const steps = rootSnapshots.map((e) => e.snapshot?.context?.steps ?? 0);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(rootSnapshots.at(-1)?.snapshot?.status).toBe('done');
    // Handler actors appear as children of the pipeline actor.
    const handlers = events.filter((e) => e.type === '@xstate.actor' && e.parentId === root?.sessionId);
    expect(handlers.length).toBeGreaterThanOrEqual(4);
  });

  it('exits when no client ever connects, and stops listening', async () => {
    const port = await freePort();
    const result = await run(port);
    expect(result.code).toBe(0);
    const refused = await new Promise<boolean>((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}`);
      socket.once('open', () => {
        socket.close();
        resolve(false);
      });
      socket.once('error', () => resolve(true));
    });
    expect(refused).toBe(true);
  });

  it('exits when the client disconnects during the run', async () => {
    const port = await freePort();
    const finished = run(port);
    const socket = await attach(port);
    socket.terminate();
    expect((await finished).code).toBe(0);
  });
});
