import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureDist } from '../helpers/ensure-dist.js';
import { tempDir } from '../helpers/temp-dir.js';
import { VALID_PIPELINE } from './temp-pipelines.js';

beforeAll(ensureDist, 120_000);

const cli = (args: string[], cwd: string) =>
  spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    // A read of a FIFO nobody writes would block for good: the test fails instead of hanging.
    timeout: 20_000,
  });

describe('attractor runs with a FIFO in place of a run file', () => {
  it.each(['checkpoint.json', 'checkpoint-journal.jsonl', 'run.lock'])(
    '%s: lists the run, never opening the FIFO',
    (name) => {
      const dir = tempDir();
      fs.writeFileSync(path.join(dir, 'p.dot'), VALID_PIPELINE);
      const runDir = path.join(dir, 'runs', 'one');
      expect(cli(['run', 'p.dot', '--dry-run', '--logs-dir', runDir], dir).status).toBe(0);
      fs.rmSync(path.join(runDir, name), { force: true });
      execFileSync('mkfifo', [path.join(runDir, name)]);
      const listed = cli(['runs', 'runs', '--json'], dir);
      expect(listed.error).toBeUndefined();
      expect(listed.status).toBe(0);
      const runs = JSON.parse(listed.stdout) as { run_dir: string }[];
      expect(runs.map((r) => r.run_dir)).toEqual([fs.realpathSync(runDir)]);
    },
  );
});
