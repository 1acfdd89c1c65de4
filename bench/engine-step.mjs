// Engine time per node step on a 1,000-node chain of no-op nodes, every checkpoint fsync'd and every
// event appended, as a ratio to a floor measured in the same process: a bare XState machine stepping
// through 1,000 invoked promise actors + one atomic fsync'd 10 KB write + one JSONL append per step.
// Target (issue 3): ratio <= 1.5.
import { closeSync, fsyncSync, mkdtempSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assign, createActor, fromPromise, setup, waitFor } from 'xstate';
import { runPipeline } from '../dist/index.js';

const N = 1000;
const ROUNDS = 5;

function chainDot(n) {
  const lines = ['digraph chain {', '  start [shape=Mdiamond]', '  exit [shape=Msquare]'];
  for (let i = 0; i < n; i++) lines.push(`  n${i} [shape=diamond]`);
  lines.push(`  start -> n0`);
  for (let i = 0; i < n - 1; i++) lines.push(`  n${i} -> n${i + 1}`);
  lines.push(`  n${n - 1} -> exit`, '}');
  return lines.join('\n');
}

function atomicWrite(dir, name, data) {
  const tmp = join(dir, `.${name}.tmp`);
  const fd = openSync(tmp, 'w');
  writeSync(fd, data);
  fsyncSync(fd);
  closeSync(fd);
  renameSync(tmp, join(dir, name));
  const dfd = openSync(dir, 'r');
  fsyncSync(dfd);
  closeSync(dfd);
}

async function floor() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-floor-'));
  const log = openSync(join(dir, 'events.jsonl'), 'a');
  const payload = 'x'.repeat(10 * 1024);
  const states = {};
  for (let i = 0; i < N; i++) {
    states[`s${i}`] = {
      invoke: {
        src: 'work',
        input: { i },
        onDone: { target: i + 1 < N ? `s${i + 1}` : 'done', actions: 'record' },
      },
    };
  }
  states.done = { type: 'final' };
  const machine = setup({
    actors: { work: fromPromise(async ({ input }) => ({ status: 'success', i: input.i })) },
    actions: {
      record: assign({
        steps: ({ context, event }) => {
          atomicWrite(dir, 'checkpoint.json', payload);
          writeSync(
            log,
            `${JSON.stringify({ kind: 'node.complete', i: event.output.i, timestamp: new Date().toISOString() })}\n`,
          );
          return context.steps + 1;
        },
      }),
    },
  }).createMachine({ id: 'floor', initial: 's0', context: { steps: 0 }, states });
  const began = performance.now();
  const actor = createActor(machine).start();
  await waitFor(actor, (s) => s.status === 'done', { timeout: 600_000 });
  const ms = performance.now() - began;
  closeSync(log);
  rmSync(dir, { recursive: true, force: true });
  return ms / N;
}

async function engine(source) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-engine-'));
  // Like the floor, time the steps only: from the first node starting (parse, validation and machine
  // construction are done by then) to the run's end.
  let began = 0;
  const result = await runPipeline({
    source,
    runsRoot: dir,
    maxSteps: N + 10,
    durable: true,
    onEvent: (e) => {
      if (began === 0 && e.kind === 'node.start') began = performance.now();
    },
  });
  const ms = performance.now() - began;
  if (result.status !== 'completed')
    throw new Error(`engine run ended ${result.status}: ${result.failure?.reason}`);
  rmSync(dir, { recursive: true, force: true });
  return ms / (N + 2);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const source = chainDot(N);
await floor();
await engine(source); // warm-up both
const floors = [];
const engines = [];
for (let r = 0; r < ROUNDS; r++) {
  floors.push(await floor());
  engines.push(await engine(source));
}
const f = median(floors);
const e = median(engines);
console.log(`engine step (1,000-node no-op chain, fsync'd checkpoints): ${(e * 1000).toFixed(0)} µs/step`);
console.log(
  `floor (bare XState + fsync'd 10 KB atomic write + JSONL append): ${(f * 1000).toFixed(0)} µs/step`,
);
console.log(`ratio engine/floor: ${(e / f).toFixed(2)}x (target <= 1.5x)`);
