// A 100,000-step loop (two nodes, scenario-driven): peak live heap during the run, and RSS and heap growth
// after it ends and a GC. Targets: peak heap <= 20 MB above the start, <= 120 MB RSS, <= 20 MB heap after
// GC — nothing per step may stay in memory, neither until the end nor after it. `BENCH_STEPS` changes the
// length; run it under `node --max-old-space-size=200` to see that it completes in a small heap.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

if (typeof globalThis.gc !== 'function') {
  const r = spawnSync(
    process.execPath,
    [...process.execArgv, '--expose-gc', fileURLToPath(import.meta.url)],
    {
      stdio: 'inherit',
    },
  );
  process.exit(r.status ?? 1);
}

const { runPipeline } = await import('../dist/index.js');
const { parseScenario } = await import('../dist/testing.js');
const STEPS = Number(process.env.BENCH_STEPS ?? 100_000);
const loops = STEPS / 2;
const source = `digraph loop {
  start [shape=Mdiamond]
  a [type="conditional"]
  b [type="conditional"]
  exit [shape=Msquare]
  start -> a -> b
  b -> a [condition="outcome=success"]
  b -> exit [condition="outcome=fail"]
}`;
const script = {
  nodes: { b: [...Array.from({ length: loops - 1 }, () => ({ outcome: 'success' })), { outcome: 'fail' }] },
};
const scenario = parseScenario(JSON.stringify(script));
const mb = (n) => (n / 1024 / 1024).toFixed(1);

gc();
const before = process.memoryUsage();
// The live heap right after a major GC is what the run holds; sampling heapUsed on a timer would also
// count garbage not yet collected. A GC-free sample (peak heapUsed) is reported as well, as an upper bound.
let peakUsed = before.heapUsed;
const sampler = setInterval(() => {
  peakUsed = Math.max(peakUsed, process.memoryUsage().heapUsed);
}, 20);
let peakLive = before.heapUsed;
const liveSampler = setInterval(() => {
  gc();
  peakLive = Math.max(peakLive, process.memoryUsage().heapUsed);
}, 1000);
const dir = mkdtempSync(join(tmpdir(), 'bench-loop-'));
const began = performance.now();
const result = await runPipeline({ source, runsRoot: dir, scenario, maxSteps: STEPS + 10, durable: false });
const ms = performance.now() - began;
clearInterval(sampler);
clearInterval(liveSampler);
gc();
gc();
const after = process.memoryUsage();
rmSync(dir, { recursive: true, force: true });
const peakGrowth = peakLive - before.heapUsed;
console.log(
  `${STEPS.toLocaleString()}-step loop: ${result.status} at ${result.stoppedAt} in ${(ms / 1000).toFixed(1)} s (${((ms * 1000) / STEPS).toFixed(0)} µs/step, checkpoints not fsync'd)`,
);
console.log(
  `peak live heap growth (sampled after a GC each second): ${mb(peakGrowth)} MB (target <= 20 MB) ${peakGrowth <= 20 * 1024 * 1024 ? 'OK' : 'MISSED'}`,
);
console.log(`peak heapUsed, garbage included: ${mb(peakUsed - before.heapUsed)} MB above the start`);
console.log(`RSS growth: ${mb(after.rss - before.rss)} MB (target <= 120 MB)`);
console.log(`heap growth after GC: ${mb(after.heapUsed - before.heapUsed)} MB (target <= 20 MB)`);
