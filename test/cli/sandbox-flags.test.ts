import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureDist } from '../helpers/ensure-dist.js';
import { SANDBOX_AVAILABLE, SANDBOX_REQUIRED } from '../helpers/sandbox-available.js';
import { tempDir } from '../helpers/temp-dir.js';

beforeAll(() => ensureDist());

/** Writes a file outside the working tree: possible only without the sandbox. */
const escaping = (outside: string, extra = '') => `digraph s {${extra}
  start [shape=Mdiamond]
  a [shape=parallelogram, tool_command="echo a >> ${outside}/marks"]
  b [shape=parallelogram, tool_command="echo b >> ${outside}/marks"]
  exit [shape=Msquare]
  start -> a -> b -> exit
}`;

function cli(args: string[], cwd: string, env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...env },
    timeout: 60_000,
  });
}

describe.runIf(SANDBOX_AVAILABLE || SANDBOX_REQUIRED)('the sandbox from the command line', () => {
  it.each([
    { how: 'by default', args: [], dot: '', writes: false },
    { how: 'with --sandbox off', args: ['--sandbox', 'off'], dot: '', writes: true },
    { how: 'with sandbox="off" on the graph', args: [], dot: '\n  sandbox="off"', writes: true },
  ])(
    'a tool command $how reaches outside the tree: $writes',
    ({ args, dot, writes }) => {
      const work = tempDir();
      const outside = tempDir();
      writeFileSync(path.join(work, 'p.dot'), escaping(outside, dot));
      const result = cli(['run', 'p.dot', '--no-tui', '--logs-dir', 'run', ...args], work);
      expect(result.status, result.stderr).toBe(writes ? 0 : 1);
      if (writes) expect(readFileSync(path.join(outside, 'marks'), 'utf8')).toBe('a\nb\n');
      else expect(result.stdout + result.stderr).toMatch(/sandbox: only the working tree/);
    },
    60_000,
  );

  it('--sandbox takes on or off only (a usage error otherwise)', () => {
    const work = tempDir();
    writeFileSync(path.join(work, 'p.dot'), escaping(work));
    const result = cli(['run', 'p.dot', '--sandbox', 'maybe'], work);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--sandbox must be on or off, got "maybe"');
  });

  it('validate knows the sandbox attributes and their values (a bad one is ignored: the sandbox stays on)', () => {
    const work = tempDir();
    writeFileSync(
      path.join(work, 'ok.dot'),
      escaping(work, '\n  sandbox="off"\n  sandbox_egress="github.com"'),
    );
    writeFileSync(path.join(work, 'bad.dot'), escaping(work, '\n  sandbox="sometimes"'));
    expect(cli(['validate', 'ok.dot'], work).status).toBe(0);
    // A value that is neither is a warning and ignored: the sandbox stays on.
    const bad = cli(['validate', 'bad.dot'], work);
    expect(bad.stdout + bad.stderr).toContain(
      'sandbox="sometimes" is not on or off; the attribute is ignored',
    );
  });
});

describe('a machine without a sandbox', () => {
  // A PATH with no bubblewrap on it: the probe finds none (tool commands here use only shell builtins).
  const noBwrap = { PATH: '/nonexistent-attractor-bin' };

  it('the CLI says so once, with the install command, and runs the commands as before', () => {
    const work = tempDir();
    const outside = tempDir();
    writeFileSync(path.join(work, 'p.dot'), escaping(outside));
    const result = cli(['run', 'p.dot', '--no-tui', '--logs-dir', 'run'], work, noBwrap);
    expect(result.status, result.stderr).toBe(0);
    const warnings = result.stderr.split('\n').filter((line) => line.includes('no sandbox on this machine'));
    expect(warnings).toEqual([
      'attractor: no sandbox on this machine, commands run with your full rights: bubblewrap (bwrap) is not installed; install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap)',
    ]);
    expect(readFileSync(path.join(outside, 'marks'), 'utf8')).toBe('a\nb\n');
  }, 60_000);

  it.each([
    ['serve', '--port', '0'],
    ['worker', '--store', 'postgres://nobody@127.0.0.1:1/none'],
  ])(
    '%s refuses to start without --unsandboxed, naming the install command',
    (...args) => {
      const work = tempDir();
      const result = cli([...args, '--data-dir', 'data'], work, noBwrap);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('only inside a sandbox, and this machine has none');
      expect(result.stderr).toContain('apt-get install bubblewrap');
      expect(result.stderr).toContain('--unsandboxed');
    },
    60_000,
  );

  it('serve starts with --unsandboxed', async () => {
    const work = tempDir();
    const child = spawn(
      process.execPath,
      [BIN, 'serve', '--port', '0', '--data-dir', tempDir(), '--unsandboxed'],
      {
        cwd: work,
        env: { ...process.env, ...noBwrap },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    const started = await new Promise<boolean>((resolve) => {
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('listening on')) resolve(true);
      });
      child.on('exit', () => resolve(false));
    });
    child.kill('SIGTERM');
    await new Promise((resolve) => child.on('exit', resolve));
    expect(started).toBe(true);
  }, 60_000);
});
