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

  // A real run (no --dry-run) and a dry run alike: the value is checked before anything starts.
  it.each([
    ['abc', ['--dry-run']],
    ['abc', []],
    ['0', []],
    ['-1', ['--dry-run']],
    ['', []],
  ])('--max-cost %j %j', (value, mode) => {
    const r = spawnSync(process.execPath, [BIN, 'run', 'p.dot', ...mode, '--max-cost', value], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] },
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /--max-cost <usd>' argument '.*' is invalid\. Expected a positive number of US dollars\./,
    );
    expect(r.stdout).toBe('');
  });

  it('a flag value found wrong after parsing is a usage error too: --record with --replay, a missing --workdir', () => {
    for (const args of [
      ['--record', 'a.jsonl', '--replay', 'b.jsonl'],
      ['--workdir', 'no-such-dir'],
    ]) {
      const r = spawnSync(process.execPath, [BIN, 'run', 'p.dot', ...args], {
        cwd: dir,
        encoding: 'utf8',
        env: { PATH: process.env['PATH'] },
      });
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(
        /^attractor: (--record and --replay cannot be used together|--workdir no-such-dir: no such directory)\./,
      );
    }
  });
});
