// Runs every benchmark in bench/ (each *.mjs file except this one), one after another, each in its
// own process so one benchmark's loaded modules and heap cannot skew the next.
// `npm run bench` builds first; the benchmarks exercise dist/ through bin/attractor.js.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const self = path.basename(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((f) => f.endsWith('.mjs') && f !== self)
  .filter((f) => only.length === 0 || only.some((name) => f.includes(name)))
  .sort();

const failed = [];
for (const bench of benches) {
  console.log(`\n### ${bench}`);
  const result = spawnSync(process.execPath, [path.join(here, bench)], { stdio: 'inherit' });
  if (result.status !== 0) failed.push(`${bench} (exit ${result.status ?? result.signal})`);
}

console.log(
  `\n${benches.length} benchmark file(s) run${failed.length ? `; failed: ${failed.join(', ')}` : ''}`,
);
process.exitCode = failed.length ? 1 : 0;
