import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureDist } from '../helpers/ensure-dist.js';

const dir = mkdtempSync(path.join(tmpdir(), 'attractor-usage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a bad flag value is a bad command line: exit 2, as --help says (real process)', () => {
  beforeAll(() => {
    ensureDist();
    writeFileSync(
      path.join(dir, 'p.dot'),
      'digraph p { start [shape=Mdiamond]; exit [shape=Msquare]; start -> exit }',
    );
  }, 180_000);

  it.each([['0'], ['-3'], ['1.5'], ['lots'], ['']])('--max-steps %j', (value) => {
    const r = spawnSync(process.execPath, [BIN, 'run', 'p.dot', '--dry-run', '--max-steps', value], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /--max-steps <n>' argument '.*' is invalid\. Expected a positive whole number\./,
    );
    expect(r.stderr).toMatch(/Run 'attractor run --help' for usage\./);
    expect(r.stdout).toBe('');
  });
});
