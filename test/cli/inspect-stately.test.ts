import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { createWebSocketReceiver, type StatelyInspectionEvent } from '@statelyai/inspect';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type CliResult, runCli, STACK_LINE } from './run-cli.js';
import { tempPipelines } from './temp-pipelines.js';

const tmp = tempPipelines();
afterAll(() => tmp.cleanup());

/**
 * Conditions, labels and weights on its edges (what the inspector's chart must show), and a tool node
 * that sleeps, so a client can connect while the run is half done.
 */
const pipeline = tmp.write(
  'inspected.dot',
  `digraph inspected {
  start [shape=Mdiamond]
  plan [prompt="Plan"]
  wait [shape=parallelogram, tool_command="sleep 2"]
  check [shape=diamond]
  exit [shape=Msquare]
  fix [prompt="Fix"]
  start -> plan -> wait -> check
  check -> exit [condition="outcome=success", label="ok", weight=3]
  check -> fix [condition="outcome!=success", label="broken"]
  fix -> exit
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

/** `attractor run --inspect PORT` in process; `stderr()` reads what it printed so far. */
function startRun(port: number, extra: string[] = []) {
  let stderr = '';
  const result = runCli(
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
    {
      cwd: tmp.dir,
      stderr: (text) => {
        stderr += text;
      },
    },
  );
  return { result, stderr: () => stderr };
}

async function until(what: string, probe: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The real `@statelyai/inspect` WebSocket receiver, collecting what it gets until the server closes. */
function receive(port: number): StatelyInspectionEvent[] {
  const received: StatelyInspectionEvent[] = [];
  createWebSocketReceiver({ server: `ws://127.0.0.1:${port}` }).subscribe((event) => {
    received.push(event);
  });
  return received;
}

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as StatelyInspectionEvent);

describe('attractor run --inspect, read by the real @statelyai/inspect receiver', () => {
  it('a client that connects late gets the whole run: every actor, with its real snapshot, and the guard params as compiled', async () => {
    const port = await freePort();
    const log = path.join(tmp.dir, 'late.jsonl');
    const run = startRun(port, ['--inspect-log', log]);
    const early = await (async () => {
      await until('the server', () => run.stderr().includes(`inspector at http://127.0.0.1:${port}`));
      return receive(port);
    })();
    // Late: the run is inside its 2-second tool node, well past the start.
    await until('the tool node to start', () => {
      try {
        return readFileSync(log, 'utf8').includes('"wait"');
      } catch {
        return false;
      }
    });
    const late = receive(port);
    const result: CliResult = await run.result;
    expect(result.code).toBe(0);
    await until('both clients to have everything', () => early.length > 0 && late.length === early.length);

    // Both saw the same run, message for message, as the log on disk has it.
    const logged = lines(log);
    expect(late).toEqual(logged);
    expect(early).toEqual(logged);

    // Every actor is announced before anything about it, with a real snapshot (not null).
    const announced = new Set<string>();
    for (const event of late) {
      if (event.type === '@xstate.actor') {
        announced.add(event.sessionId);
        expect(event.snapshot, `snapshot of ${event.name}`).toMatchObject({ status: expect.any(String) });
      } else {
        expect(announced.has(event.sessionId), `${event.type} of an unannounced actor`).toBe(true);
      }
    }
    const root = late.find((e) => e.type === '@xstate.actor' && e.name === 'pipeline');
    if (root?.type !== '@xstate.actor') throw new Error('no pipeline actor');
    // The machine's initial state (its first eventless transitions taken): at the start node.
    expect(root.snapshot).toMatchObject({ status: 'active', value: { start: 'run' }, context: { steps: 1 } });
    const handlers = late.filter((e) => e.type === '@xstate.actor' && e.parentId === root.sessionId);
    expect(handlers.length).toBeGreaterThanOrEqual(4);

    // The live definition is the compiled config: every guard's condition, label and weight survive.
    const compiled = await runCli(['compile', pipeline, '--format', 'xstate'], { cwd: tmp.dir });
    expect(compiled.code).toBe(0);
    const config = JSON.parse(compiled.stdout);
    const live = JSON.parse(root.definition ?? '{}');
    expect(live.states).toEqual(config.states);
    expect(live.on).toEqual(config.on);
    const guards = live.states.check.states.run.invoke.onDone.map((t: { guard?: unknown }) => t.guard);
    expect(guards).toContainEqual({
      type: 'routesToEdge',
      params: expect.objectContaining({
        condition: 'outcome=success',
        label: 'ok',
        weight: 3,
        target: 'exit',
      }),
    });
    expect(JSON.stringify(live)).not.toContain('{"type":"params"}');
  }, 60_000);

  it('refuses a foreign web page (Origin) and a foreign Host; --inspect-origin lets a named origin in', async () => {
    const port = await freePort();
    const run = startRun(port, ['--inspect-origin', 'https://stately.ai']);
    await until('the server', () => run.stderr().includes(`inspector at http://127.0.0.1:${port}`));
    const status = (options: WebSocket.ClientOptions) =>
      new Promise<number>((resolve) => {
        const socket = new WebSocket(`ws://127.0.0.1:${port}`, options);
        socket.once('open', () => {
          socket.close();
          resolve(101);
        });
        socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        socket.once('error', () => resolve(0));
      });
    expect(await status({ origin: 'https://evil.example' })).toBe(403);
    expect(await status({ origin: 'null' })).toBe(403);
    expect(await status({ headers: { host: `evil.example:${port}` } })).toBe(403);
    expect(await status({ origin: `http://127.0.0.1:${port}` })).toBe(101);
    expect(await status({ origin: `http://localhost:${port}` })).toBe(101);
    expect(await status({ origin: 'https://stately.ai' })).toBe(101);
    expect(await status({})).toBe(101);
    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('postMessage(e, target)');
    expect((await run.result).code).toBe(0);
  }, 60_000);

  it('a port in use is one line naming the port and the flag, exit 1', async () => {
    const busy: Server = createServer();
    const port = await new Promise<number>((resolve) =>
      busy.listen(0, '127.0.0.1', () => {
        const address = busy.address();
        resolve(typeof address === 'object' && address ? address.port : 0);
      }),
    );
    try {
      const result = await runCli(
        [
          'run',
          pipeline,
          '--scenario',
          scenario,
          '--logs-dir',
          path.join(tmp.dir, 'busy'),
          '--inspect',
          String(port),
        ],
        { cwd: tmp.dir },
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `attractor: --inspect: port ${port} on 127.0.0.1 is in use; pick another with --inspect <port> (--inspect 0 takes a free one).\n`,
      );
      expect(result.stderr).not.toMatch(STACK_LINE);
    } finally {
      busy.close();
    }
  });

  it('--inspect-origin takes an origin only', async () => {
    const result = await runCli(
      ['run', pipeline, '--inspect', '0', '--inspect-origin', 'https://stately.ai/inspect'],
      {
        cwd: tmp.dir,
      },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Expected an origin such as https:\/\/stately\.ai/);
  });
});
