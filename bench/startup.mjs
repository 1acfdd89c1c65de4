// Start-up cost: `attractor --version` wall time as a ratio to `node -e 0`, whole process.
// Target ≤ 2.5×: the CLI must load its heavy dependencies (compiler, XState, SDKs, WASM) lazily.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'attractor.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const TARGET = 2.5;

if (!existsSync(path.join(root, 'dist', 'cli', 'main.js'))) {
  console.error('startup: dist/ is missing; run `npm run build` (or `npm run bench`, which builds first)');
  process.exit(1);
}

/** Median wall time in ms of `node ...args`, after one warm-up run (file cache). */
function medianMs(args) {
  const times = [];
  for (let i = 0; i <= RUNS; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { encoding: 'utf8' });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    if (i > 0) times.push(ms);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

// Interleave the baseline and the measured command so drift on a shared machine hits both.
const baseline = [];
const version = [];
for (let round = 0; round < 3; round++) {
  baseline.push(medianMs(['-e', '0']));
  version.push(medianMs([bin, '--version']));
}
const base = Math.min(...baseline);
const ms = Math.min(...version);
const ratio = ms / base;
console.log(`node -e 0:           ${base.toFixed(1)} ms (median of ${RUNS}, best of 3 rounds)`);
console.log(
  `attractor --version: ${ms.toFixed(1)} ms = ${ratio.toFixed(2)}× node -e 0 (target ≤ ${TARGET}×) ${ratio <= TARGET ? 'OK' : 'MISSED'}`,
);
