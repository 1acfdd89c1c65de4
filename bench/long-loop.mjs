// A 100,000-step loop (two nodes, scenario-driven): RSS growth and heap growth after GC.
// Targets: <= 120 MB RSS, <= 20 MB heap — nothing per step may stay in memory.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

if (typeof globalThis.gc !== 'function') {
  const r = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url)], {
    stdio: 'inherit',
  });
  process.exit(r.status ?? 1);
}

const { parseScenario, runPipeline } = await import('../dist/index.js');
const STEPS = 100_000;
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
const dir = mkdtempSync(join(tmpdir(), 'bench-loop-'));
const began = performance.now();
const result = await runPipeline({ source, runsRoot: dir, scenario, maxSteps: STEPS + 10, durable: false });
const ms = performance.now() - began;
gc();
gc();
const after = process.memoryUsage();
rmSync(dir, { recursive: true, force: true });
console.log(
  `${STEPS.toLocaleString()}-step loop: ${result.status} at ${result.stoppedAt} in ${(ms / 1000).toFixed(1)} s (${((ms * 1000) / STEPS).toFixed(0)} µs/step, checkpoints not fsync'd)`,
);
console.log(`RSS growth: ${mb(after.rss - before.rss)} MB (target <= 120 MB)`);
console.log(`heap growth after GC: ${mb(after.heapUsed - before.heapUsed)} MB (target <= 20 MB)`);
