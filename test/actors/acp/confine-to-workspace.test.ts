import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { confineToWorkspace } from '../../../src/actors/acp/confine-to-workspace.js';

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'attractor-confine-')));
const work = path.join(base, 'work');
const stage = path.join(base, 'runs', 'node');
mkdirSync(path.join(work, 'src'), { recursive: true });
mkdirSync(stage, { recursive: true });
symlinkSync('/etc', path.join(work, 'escape'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('confineToWorkspace', () => {
  it.each([
    ['a file inside', path.join(work, 'src', 'a.ts'), path.join(work, 'src', 'a.ts')],
    [
      'a new file in a new directory',
      path.join(work, 'new', 'deep', 'b.ts'),
      path.join(work, 'new', 'deep', 'b.ts'),
    ],
    ['relative to the working directory', 'src/c.ts', path.join(work, 'src', 'c.ts')],
    ['the stage directory', path.join(stage, 'status.json'), path.join(stage, 'status.json')],
    ['outside', '/etc/passwd', undefined],
    ['.. out of the workspace', path.join(work, '..', 'secret'), undefined],
    ['a symlink leading out', path.join(work, 'escape', 'passwd'), undefined],
    ['a NUL byte', `${work}/a\0b`, undefined],
  ])('%s', (_name, requested, expected) => {
    expect(confineToWorkspace(requested, [work, stage])).toBe(expected);
  });
});
