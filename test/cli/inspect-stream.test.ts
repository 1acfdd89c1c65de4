import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { assign, createActor, createMachine } from 'xstate';
import { openInspectStream } from '../../src/cli/inspect-stream.js';
import { tempPipelines } from './temp-pipelines.js';

const tmp = tempPipelines();
afterAll(() => tmp.cleanup());

const counter = createMachine({
  id: 'counter',
  context: { n: 0 },
  on: { TICK: { actions: assign({ n: ({ context }) => context.n + 1 }) } },
});

it('a client connecting after 30,000 messages is replayed every one of them from disk, then follows live', async () => {
  const log = path.join(tmp.dir, 'long.jsonl');
  const stream = await openInspectStream({ port: 0, logFile: log });
  const actor = createActor(counter, { inspect: (e) => stream.inspect(e) });
  actor.start();
  // Each TICK is two messages (the event and the snapshot): far past any in-memory replay window.
  for (let i = 0; i < 15_000; i += 1) actor.send({ type: 'TICK' });
  const received: string[] = [];
  const socket = new WebSocket(stream.url?.replace('http', 'ws') ?? '');
  socket.on('message', (data) => received.push(String(data)));
  await new Promise((resolve) => socket.once('open', resolve));
  for (let i = 0; i < 10; i += 1) actor.send({ type: 'TICK' });
  const closed = new Promise((resolve) => socket.once('close', resolve));
  await stream.close();
  await closed;
  const logged = readFileSync(log, 'utf8').trim().split('\n');
  expect(logged.length).toBeGreaterThan(30_000);
  expect(received).toEqual(logged);
  const first = JSON.parse(received[0] ?? '{}');
  expect(first).toMatchObject({ type: '@xstate.actor', name: 'counter', snapshot: { context: { n: 0 } } });
  expect(JSON.parse(received.at(-1) ?? '{}')).toMatchObject({
    type: '@xstate.snapshot',
    snapshot: { context: { n: 15_010 } },
  });
}, 60_000);
