// Start-up cost, whole process: `attractor --version` as a ratio to `node -e 0` (target ≤ 2.5×: heavy
// dependencies load lazily), and a dry run of examples/01-hello.dot from the CLI's bundle against the
// same CLI run from its modules in dist/ (docs/decisions/0073-the-cli-runs-from-one-bundle.md):
// wall and CPU time (user + system, which load stretches less than wall time).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'attractor.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const TARGET = 2.5;

if (!existsSync(path.join(root, 'dist', 'bin', 'attractor.js'))) {
  console.error('startup: dist/ is missing; run `npm run build` (or `npm run bench`, which builds first)');
  process.exit(1);
}

const work = mkdtempSync(path.join(tmpdir(), 'attractor-startup-'));
let fresh = 0;
const hello = path.join(root, 'examples', '01-hello.dot');
const dryRun = () => ['run', hello, '--dry-run', '--logs-dir', path.join(work, `r${fresh++}`)];
// The same CLI, loaded module by module from dist/ (what bin/attractor.js does without the bundle).
const fromModules = `import(${JSON.stringify(path.join(root, 'dist', 'cli', 'main.js'))}).then((m) => m.main(process.argv.slice(1))).then((c) => { process.exitCode = c; })`;

/** Wall and CPU ms of one `node ...args` (CPU from the child's resource usage). */
function once(args) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync('/bin/sh', ['-c', 'node "$@"; s=$?; times >&2; exit $s', 'sh', ...args], {
    encoding: 'utf8',
  });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  // `times` prints the shell's own times, then its children's: "0m0.210s 0m0.040s".
  const child = r.stderr
    .trim()
    .split('\n')
    .at(-1)
    .match(/(\d+)m([\d.]+)s (\d+)m([\d.]+)s/);
  const cpu = child
    ? (Number(child[1]) * 60 + Number(child[2]) + Number(child[3]) * 60 + Number(child[4])) * 1000
    : NaN;
  return { wall, cpu };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Medians of wall and CPU over RUNS runs of each command, interleaved so drift hits all alike. */
function measure(commands) {
  const samples = commands.map(() => ({ wall: [], cpu: [] }));
  for (let i = 0; i <= RUNS; i++) {
    commands.forEach((args, k) => {
      const s = once(typeof args === 'function' ? args() : args);
      if (i === 0) return; // warm-up: file cache
      samples[k].wall.push(s.wall);
      samples[k].cpu.push(s.cpu);
    });
  }
  return samples.map((s) => ({ wall: median(s.wall), cpu: median(s.cpu) }));
}

try {
  const [base, version, bundled, modules] = measure([
    ['-e', '0'],
    [bin, '--version'],
    () => [bin, ...dryRun()],
    () => ['--input-type=module', '-e', fromModules, ...dryRun()],
  ]);
  const ratio = version.wall / base.wall;
  const ms = (x) => `${x.toFixed(0)} ms`;
  console.log(`node -e 0:              wall ${ms(base.wall)}, CPU ${ms(base.cpu)} (medians of ${RUNS})`);
  console.log(
    `attractor --version:    wall ${ms(version.wall)} = ${ratio.toFixed(2)}× node -e 0 (target ≤ ${TARGET}×) ${ratio <= TARGET ? 'OK' : 'MISSED'}`,
  );
  console.log(`dry run, bundle:        wall ${ms(bundled.wall)}, CPU ${ms(bundled.cpu)}`);
  console.log(`dry run, modules:       wall ${ms(modules.wall)}, CPU ${ms(modules.cpu)}`);
  console.log(
    `bundle / modules:       wall ${(bundled.wall / modules.wall).toFixed(2)}×, CPU ${(bundled.cpu / modules.cpu).toFixed(2)}×`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
