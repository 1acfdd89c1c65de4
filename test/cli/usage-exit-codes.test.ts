import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureDist } from '../helpers/ensure-dist.js';
import { runCli } from './run-cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'attractor-usage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The CLI's `main()` in this process, answering like `spawnSync` does. */
async function cli(args: string[], env: Record<string, string | undefined> = process.env) {
  const r = await runCli(args, { cwd: dir, env });
  return { status: r.code, stdout: r.stdout, stderr: r.stderr };
}

describe('a bad flag value is a bad command line: exit 2, as --help says', () => {
  beforeAll(() => {
    ensureDist();
    writeFileSync(
      path.join(dir, 'p.dot'),
      'digraph p { start [shape=Mdiamond]; exit [shape=Msquare]; start -> exit }',
    );
  }, 180_000);

  it('a real process exits with status 2 and says so on stderr only', () => {
    const r = spawnSync(process.execPath, [BIN, 'run', 'p.dot', '--dry-run', '--max-steps', '0'], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--max-steps <n>' argument '0' is invalid\. Expected a positive whole number\./);
    expect(r.stderr).toMatch(/Run 'attractor run --help' for usage\./);
    expect(r.stdout).toBe('');
  });

  it.each([['0'], ['-3'], ['1.5'], ['lots'], ['']])('--max-steps %j', async (value) => {
    const r = await cli(['run', 'p.dot', '--dry-run', '--max-steps', value]);
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
  ])('--max-cost %j %j', async (value, mode) => {
    const r = await cli(['run', 'p.dot', ...mode, '--max-cost', value], { PATH: process.env['PATH'] });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /--max-cost <usd>' argument '.*' is invalid\. Expected a positive number of US dollars\./,
    );
    expect(r.stdout).toBe('');
  });

  it('a flag value found wrong after parsing is a usage error too: --record with --replay, a missing --workdir', async () => {
    for (const args of [
      ['--record', 'a.jsonl', '--replay', 'b.jsonl'],
      ['--workdir', 'no-such-dir'],
    ]) {
      const r = await cli(['run', 'p.dot', ...args], { PATH: process.env['PATH'] });
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(
        /^attractor: (--record and --replay cannot be used together|--workdir no-such-dir: no such directory)\./,
      );
    }
  });
});
