// TUI start-up cost: `attractor run --dry-run` of a 5-node pipeline in a pseudo-terminal (util-linux
// `script`), with the TUI against `--no-tui`. Target: the TUI adds ≤ 350 ms (Ink and React load lazily,
// only on a terminal; docs/decisions/0023-tui-opens-only-on-a-terminal.md).
//
// A warm-up pair first fills the file cache, as every run after the first finds it.
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
const TARGET_MS = 350;
const dir = mkdtempSync(path.join(tmpdir(), 'tui-startup-'));
writeFileSync(
  path.join(dir, 'five.dot'),
  'digraph five { start [shape=Mdiamond]; a; b; c; exit [shape=Msquare]; start -> a -> b -> c -> exit }\n',
);

let runs = 0;
/** Wall-clock ms of one run, and the CPU ms (user + system) its Node process used, from GNU time. */
function timeRun(extra) {
  // `script` gives its pty no size when it has no terminal itself; a user's terminal has one (a size of
  // 0 rows makes Ink redraw the whole screen every frame).
  const node = `${process.execPath} ${bin} run five.dot --dry-run --logs-dir runs-${++runs} ${extra}`;
  const command = `stty rows 40 cols 120; /usr/bin/time -f 'CPU %U %S' ${node}`;
  const t0 = process.hrtime.bigint();
  const r = spawnSync('script', ['-qec', command, '/dev/null'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, CI: '' },
  });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${command} exited ${r.status}: ${r.stdout}${r.stderr}`);
  const cpu = /CPU ([\d.]+) ([\d.]+)/.exec(r.stdout);
  if (!cpu) throw new Error(`no CPU time in the output of ${command}`);
  return { wall, cpu: (Number(cpu[1]) + Number(cpu[2])) * 1000 };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const plain = [];
const tui = [];
const extra = [];
const extraCpu = [];
timeRun('--no-tui'); // warms the file cache
timeRun('');
for (let i = 0; i < PAIRS; i++) {
  // Alternate which goes first, so neither always runs on the warmer machine.
  let a;
  let b;
  if (i % 2 === 0) {
    a = timeRun('--no-tui');
    b = timeRun('');
  } else {
    b = timeRun('');
    a = timeRun('--no-tui');
  }
  plain.push(a.wall);
  tui.push(b.wall);
  extra.push(b.wall - a.wall);
  extraCpu.push(b.cpu - a.cpu);
}
rmSync(dir, { recursive: true, force: true });
const cost = median(extra);
const sorted = [...extra].sort((a, b) => a - b);
const sortedCpu = [...extraCpu].sort((a, b) => a - b);
const signed = (ms) => `${ms < 0 ? '' : '+'}${ms.toFixed(0)}`;
console.log(
  `run --dry-run --no-tui (pty): ${median(plain).toFixed(0)} ms, with TUI: ${median(tui).toFixed(0)} ms (medians of ${PAIRS} pairs)`,
);
console.log(
  `TUI start-up cost: median ${signed(cost)} ms, range ${signed(sorted[0])} to ${signed(sorted.at(-1))} ms over ${PAIRS} pairs (target ≤ +${TARGET_MS} ms) ${cost <= TARGET_MS ? 'OK' : 'MISSED'}`,
);
// CPU time is what the TUI adds whatever else the machine runs; wall time stretches with the load.
console.log(
  `TUI CPU time (user + system): median ${signed(median(extraCpu))} ms, range ${signed(sortedCpu[0])} to ${signed(sortedCpu.at(-1))} ms`,
);
