// 8 parallel branches of 200 ms each, whole fan-out + fan-in wall time as a ratio to 200 ms.
// Target: <= 1.05.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDefaultRegistry, runPipeline } from '../dist/index.js';

const BRANCHES = 8;
const SLEEP = 200;
const lines = [
  'digraph fan {',
  '  start [shape=Mdiamond]',
  `  fan [shape=component, max_parallel=${BRANCHES}]`,
  '  join [shape=tripleoctagon]',
  '  exit [shape=Msquare]',
  '  start -> fan',
];
for (let i = 0; i < BRANCHES; i++) lines.push(`  b${i} [type="sleep"]`, `  fan -> b${i}`, `  b${i} -> join`);
lines.push('  join -> exit', '}');
const source = lines.join('\n');
const sleep = ({ signal }) =>
  new Promise((resolve) => {
    const t = setTimeout(() => resolve({ status: 'success' }), SLEEP);
    signal.addEventListener('abort', () => clearTimeout(t), { once: true });
  });
const registry = createDefaultRegistry().register('sleep', sleep);

/** The same eight handlers in a bare Promise.all, no engine: what Node's timers allow here (informational). */
async function timerFloor() {
  const walls = [];
  for (let r = 0; r < 6; r++) {
    const began = performance.now();
    await Promise.all(
      Array.from({ length: BRANCHES }, () => sleep({ signal: new AbortController().signal })),
    );
    if (r > 0) walls.push(performance.now() - began);
  }
  return [...walls].sort((a, b) => a - b)[Math.floor(walls.length / 2)];
}

/** Fan-out to join wall times of 5 runs (after a warm-up run). */
async function measure(durable) {
  const walls = [];
  for (let r = 0; r < 6; r++) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-fan-'));
    let fanStart = 0;
    let fanEnd = 0;
    const result = await runPipeline({
      source,
      runsRoot: dir,
      registry,
      durable,
      onEvent: (e) => {
        if (e.kind === 'node.start' && e.node_id === 'fan') fanStart = performance.now();
        if (e.kind === 'node.complete' && e.node_id === 'fan') fanEnd = performance.now();
      },
    });
    if (result.status !== 'completed')
      throw new Error(`run ended ${result.status}: ${result.failure?.reason}`);
    rmSync(dir, { recursive: true, force: true });
    if (r > 0) walls.push(fanEnd - fanStart);
  }
  return [...walls].sort((a, b) => a - b)[Math.floor(walls.length / 2)];
}

const median = await measure(false);
console.log(`${BRANCHES} branches x ${SLEEP} ms: fan-out to join ${median.toFixed(1)} ms (median of 5)`);
const ratio = median / SLEEP;
console.log(`ratio to ${SLEEP} ms: ${ratio.toFixed(3)} (target <= 1.05) ${ratio <= 1.05 ? 'OK' : 'MISSED'}`);
// Informational: how much of it is Node's timers (they fire on a millisecond clock, late after idle).
const floor = await timerFloor();
console.log(
  `timer floor (the same handlers in a bare Promise.all): ${floor.toFixed(1)} ms; engine over it: ${(median - floor).toFixed(1)} ms`,
);
// Informational: the same in a durable run (the default), where each finished branch is fsync'd.
const durable = await measure(true);
console.log(
  `durable run (branch results fsync'd): ${durable.toFixed(1)} ms, ratio ${(durable / SLEEP).toFixed(3)}`,
);
