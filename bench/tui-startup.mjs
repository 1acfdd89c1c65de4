// TUI start-up cost: `attractor run --dry-run` of a 5-node pipeline in a pseudo-terminal (util-linux
// `script`), with the TUI against `--no-tui`. Target: the TUI adds ≤ 150 ms (Ink and React load lazily,
// only on a terminal).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'attractor.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const TARGET_MS = 150;
const dir = mkdtempSync(path.join(tmpdir(), 'tui-startup-'));
writeFileSync(
  path.join(dir, 'five.dot'),
  'digraph five { start [shape=Mdiamond]; a; b; c; exit [shape=Msquare]; start -> a -> b -> c -> exit }\n',
);

let runs = 0;
function medianMs(extra) {
  const times = [];
  for (let i = 0; i <= RUNS; i++) {
    const command = `${process.execPath} ${bin} run five.dot --dry-run --logs-dir runs-${++runs} ${extra}`;
    const t0 = process.hrtime.bigint();
    const r = spawnSync('script', ['-qec', command, '/dev/null'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, CI: '' },
    });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 0) throw new Error(`${command} exited ${r.status}: ${r.stdout}${r.stderr}`);
    if (i > 0) times.push(ms);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const plain = [];
const tui = [];
for (let round = 0; round < 2; round++) {
  plain.push(medianMs('--no-tui'));
  tui.push(medianMs(''));
}
rmSync(dir, { recursive: true, force: true });
const base = Math.min(...plain);
const ms = Math.min(...tui);
console.log(`run --dry-run --no-tui (pty): ${base.toFixed(0)} ms (median of ${RUNS}, best of 2 rounds)`);
console.log(
  `run --dry-run with TUI (pty): ${ms.toFixed(0)} ms = +${(ms - base).toFixed(0)} ms, ${(ms / base).toFixed(2)}× (target ≤ +${TARGET_MS} ms) ${ms - base <= TARGET_MS ? 'OK' : 'MISSED'}`,
);
