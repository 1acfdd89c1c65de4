import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureDist } from '../helpers/ensure-dist.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// One branch starts a long tool (recording its pid, which only outside the sandbox is the host's); the other finishes after a second, so the run
// prints again while the long tool is running, after `head -1` has gone.
const PIPELINE = `digraph piped {
  start [shape=Mdiamond]
  fan [shape=component]
  long [shape=parallelogram, sandbox="off", tool_command="echo $$ > sleeper.pid; exec sleep 30"]
  short [shape=parallelogram, tool_command="sleep 1; echo short"]
  join [shape=tripleoctagon]
  exit [shape=Msquare]
  start -> fan
  fan -> long -> join
  fan -> short -> join
  join -> exit
}`;

describe('attractor run | head -1 (a real shell pipeline)', () => {
  beforeAll(() => ensureDist(), 180_000);

  it.each([
    ['plain', []],
    ['--json', ['--json']],
  ])(
    '%s: a closed stdout cancels the node (its process dies), checkpoints, releases the lock and exits 130',
    (_name, extra) => {
      const dir = mkdtempSync(path.join(tmpdir(), 'attractor-pipe-'));
      dirs.push(dir);
      writeFileSync(path.join(dir, 'p.dot'), PIPELINE);
      writeFileSync(path.join(dir, 's.json'), '{}');
      const args = ['run', 'p.dot', '--scenario', 's.json', '--logs-dir', 'runs', ...extra]
        .map((a) => `'${a}'`)
        .join(' ');
      const began = Date.now();
      const r = spawnSync(
        'bash',
        // The reader goes once the long tool runs (a node's work starts once its checkpoint is on
        // disk): the closed stdout then has a process to stop.
        [
          '-c',
          `'${process.execPath}' '${BIN}' ${args} | { head -1; until [ -e sleeper.pid ]; do sleep 0.05; done; }; echo "exit=\${PIPESTATUS[0]}" >&2`,
        ],
        { cwd: dir, encoding: 'utf8', timeout: 40_000 },
      );
      expect(Date.now() - began).toBeLessThan(20_000);
      expect(r.stdout.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/stdout was closed; stopping the run/);
      expect(r.stderr).toMatch(/exit=130/);
      const sleeper = Number(readFileSync(path.join(dir, 'sleeper.pid'), 'utf8'));
      expect(alive(sleeper)).toBe(false);
      const ps = spawnSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' }).stdout;
      expect(ps.split('\n').some((l) => l.trim().startsWith(`${sleeper} `))).toBe(false);
      const runDir = path.join(dir, 'runs');
      expect(existsSync(path.join(runDir, 'run.lock'))).toBe(false);
      const checkpoint = JSON.parse(readFileSync(path.join(runDir, 'checkpoint.json'), 'utf8'));
      expect(checkpoint.status).toBe('cancelled');
    },
    60_000,
  );
});
