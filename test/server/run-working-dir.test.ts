import { existsSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allowedWorkdirRoots, namedWorkingDir, runWorkingDir } from '../../src/server/run-working-dir.js';
import { AttractorError } from '../../src/shared/errors.js';
import { tempDir } from '../helpers/temp-dir.js';

/** root/ (allowed) with checkout/ and a file, a link inside to outside/, a link inside to checkout/. */
function layout() {
  const base = realpathSync(tempDir());
  const root = path.join(base, 'root');
  const outside = path.join(base, 'outside');
  mkdirSync(path.join(root, 'checkout'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(root, 'file.txt'), 'x');
  symlinkSync(outside, path.join(root, 'escape'));
  symlinkSync(path.join(root, 'checkout'), path.join(root, 'alias'));
  symlinkSync(path.join(root, 'checkout'), path.join(base, 'into-root'));
  return { base, root, outside };
}

function refusal(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    if (!AttractorError.isInstance(error)) throw error;
    return { code: error.code, message: error.message };
  }
  throw new Error('expected a refusal');
}

describe('namedWorkingDir', () => {
  const cases: Array<{ name: string; named: (l: ReturnType<typeof layout>) => string; code?: string }> = [
    { name: 'a folder inside a root', named: (l) => path.join(l.root, 'checkout') },
    { name: 'the root itself', named: (l) => l.root },
    { name: 'a symlink inside a root to a folder inside it', named: (l) => path.join(l.root, 'alias') },
    {
      name: 'a folder outside every root',
      named: (l) => l.outside,
      code: 'WORKDIR_NOT_ALLOWED',
    },
    {
      name: 'a symlink inside a root that leads outside',
      named: (l) => path.join(l.root, 'escape'),
      code: 'WORKDIR_NOT_ALLOWED',
    },
    {
      name: '.. past the root',
      named: (l) => `${l.root}/checkout/../../outside`,
      code: 'WORKDIR_NOT_ALLOWED',
    },
    {
      name: 'a symlink outside that leads into a root (where it leads counts)',
      named: (l) => path.join(l.base, 'into-root'),
    },
    {
      name: 'a missing folder outside (its existence is not told)',
      named: (l) => path.join(l.base, 'nope'),
      code: 'WORKDIR_NOT_ALLOWED',
    },
    { name: 'a missing folder inside', named: (l) => path.join(l.root, 'nope'), code: 'WORKDIR_MISSING' },
    { name: 'a file inside', named: (l) => path.join(l.root, 'file.txt'), code: 'WORKDIR_MISSING' },
    { name: 'a relative path', named: () => 'checkout', code: 'WORKDIR_NOT_ALLOWED' },
  ];
  it.each(cases)('$name', ({ named, code }) => {
    const l = layout();
    const policy = { roots: allowedWorkdirRoots([l.root]), who: 'this worker' };
    const name = named(l);
    if (code === undefined) {
      expect(namedWorkingDir(name, policy)).toBe(realpathSync(name));
      return;
    }
    const refused = refusal(() => namedWorkingDir(name, policy));
    expect(refused.code).toBe(code);
    expect(refused.message).toContain(`working_dir "${name}"`);
    expect(refused.message).toContain('this worker');
    // Where a symlink leads is not told.
    if (name.endsWith('escape')) expect(refused.message).not.toContain(l.outside);
  });

  it('refuses every name when no folder is allowed', () => {
    const l = layout();
    const refused = refusal(() => namedWorkingDir(l.root, { roots: [], who: 'this server' }));
    expect(refused.code).toBe('WORKDIR_NOT_ALLOWED');
    expect(refused.message).toContain('no --allow-workdir folder');
  });
});

describe('runWorkingDir', () => {
  it("creates a run's own folder beside its run directory when it names none", () => {
    const runs = tempDir();
    const runDir = path.join(runs, 'r1', 'run');
    const dir = runWorkingDir(undefined, { roots: [], perRun: true, who: 'this worker' }, runDir);
    expect(dir).toBe(path.join(runs, 'r1', 'work'));
    expect(existsSync(path.join(runs, 'r1', 'work'))).toBe(true);
  });

  it("leaves the process's working directory when the policy keeps no per-run folders", () => {
    expect(runWorkingDir(undefined, { roots: [], perRun: false, who: 'this server' }, '/x/r/run')).toBe(
      undefined,
    );
    expect(runWorkingDir(undefined, undefined, '/x/r/run')).toBe(undefined);
  });
});

describe('allowedWorkdirRoots', () => {
  it('refuses a folder that does not exist, and a file', () => {
    const l = layout();
    expect(refusal(() => allowedWorkdirRoots([path.join(l.base, 'nope')])).code).toBe('BAD_FLAG');
    expect(refusal(() => allowedWorkdirRoots([path.join(l.root, 'file.txt')])).message).toContain(
      'not a folder',
    );
  });
});
