// Per-command overhead of the sandbox (decision 0341): the same commands through the one process-group
// spawner, unsandboxed and inside bubblewrap, interleaved so both see the same machine load.
// Goal: median added ≤ 15 ms per command.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnProcessGroup } from '../dist/shared/process/spawn-process-group.js';
import { probeSandbox } from '../dist/shared/sandbox/probe-sandbox.js';
import { DEFAULT_MAX_PROCESSES } from '../dist/shared/sandbox/sandbox-policy.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 60);
const probe = probeSandbox();
if (!probe.available) {
  console.log(`sandbox: skipped, ${probe.reason}`);
  process.exit(0);
}
const work = mkdtempSync(join(tmpdir(), 'attractor-bench-sandbox-'));
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const run = async (command, sandboxed) => {
  const started = performance.now();
  await spawnProcessGroup({
    argv: ['/bin/sh', '-c', command],
    cwd: work,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root' },
    killGraceMs: 2000,
    record: () => {},
    ...(sandboxed
      ? {
          sandbox: {
            bwrap: probe.bwrap,
            policy: { writable: [work], hidden: [], egress: [], maxProcesses: DEFAULT_MAX_PROCESSES },
          },
        }
      : {}),
  });
  return performance.now() - started;
};
try {
  console.log(`sandbox: per-command time, ${ROUNDS} rounds each, median (p90) in ms`);
  console.log('command                 unsandboxed     sandboxed       added');
  for (const command of ['true', 'echo hi > out.txt', 'git --version']) {
    const plain = [];
    const boxed = [];
    for (let i = 0; i < ROUNDS; i++) {
      plain.push(await run(command, false));
      boxed.push(await run(command, true));
    }
    const p90 = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.9)];
    const cell = (values) => `${median(values).toFixed(1)} (${p90(values).toFixed(1)})`.padEnd(16);
    console.log(
      `${command.padEnd(24)}${cell(plain)}${cell(boxed)}${(median(boxed) - median(plain)).toFixed(1)}`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
