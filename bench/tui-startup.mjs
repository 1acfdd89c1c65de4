// TUI start-up cost: `attractor run --dry-run` of a 5-node pipeline in a pseudo-terminal (util-linux
// `script`), with the TUI against `--no-tui`. Target: the TUI adds ≤ 150 ms (Ink and React load lazily,
// only on a terminal).
//
// The two are run in alternating pairs and the cost is the median of the pairs' differences: on a
// shared machine the load drifts over seconds, and a pair run back to back sees about the same load.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'attractor.js');
const PAIRS = Number(process.env.BENCH_RUNS ?? 15);
const TARGET_MS = 150;
const dir = mkdtempSync(path.join(tmpdir(), 'tui-startup-'));
writeFileSync(
  path.join(dir, 'five.dot'),
  'digraph five { start [shape=Mdiamond]; a; b; c; exit [shape=Msquare]; start -> a -> b -> c -> exit }\n',
);

let runs = 0;
function timeMs(extra) {
  const command = `${process.execPath} ${bin} run five.dot --dry-run --logs-dir runs-${++runs} ${extra}`;
  const t0 = process.hrtime.bigint();
  const r = spawnSync('script', ['-qec', command, '/dev/null'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, CI: '' },
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${command} exited ${r.status}: ${r.stdout}${r.stderr}`);
  return ms;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const plain = [];
const tui = [];
const extra = [];
timeMs('--no-tui'); // warms the file cache
timeMs('');
for (let i = 0; i < PAIRS; i++) {
  // Alternate which goes first, so neither always runs on the warmer machine.
  let a;
  let b;
  if (i % 2 === 0) {
    a = timeMs('--no-tui');
    b = timeMs('');
  } else {
    b = timeMs('');
    a = timeMs('--no-tui');
  }
  plain.push(a);
  tui.push(b);
  extra.push(b - a);
}
rmSync(dir, { recursive: true, force: true });
const cost = median(extra);
const sorted = [...extra].sort((a, b) => a - b);
console.log(
  `run --dry-run --no-tui (pty): ${median(plain).toFixed(0)} ms, with TUI: ${median(tui).toFixed(0)} ms (medians of ${PAIRS} pairs)`,
);
console.log(
  `TUI start-up cost: median +${cost.toFixed(0)} ms, range ${sorted[0].toFixed(0)} to +${sorted.at(-1).toFixed(0)} ms over ${PAIRS} pairs (target ≤ +${TARGET_MS} ms) ${cost <= TARGET_MS ? 'OK' : 'MISSED'}`,
);
