import { describe, expect, it } from 'vitest';
import {
  defaultReadScope,
  type ReadScope,
  resolveInScope,
  uniqueFolders,
} from '../../../src/compiler/files/read-scope.js';

const scope: ReadScope = {
  base: '/repo/pipelines',
  roots: ['/repo/pipelines', '/repo'],
  described: 'the pipeline folder or the repository',
};

describe('resolveInScope (no disk access)', () => {
  it.each([
    ['prompts/plan.md', '/repo/pipelines/prompts/plan.md'],
    ['../prompts/plan.md', '/repo/prompts/plan.md'],
    ['./a/../b.md', '/repo/pipelines/b.md'],
  ])('%s → %s', (name, resolved) => {
    expect(resolveInScope(name, scope)).toEqual({ ok: true, path: resolved });
  });

  it.each([
    ['/etc/hostname', /absolute/],
    ['C:\\secrets\\x', /absolute/],
    ['~/.ssh/id_rsa', /absolute/],
    ['../../.env', /outside/],
    ['../../repo-other/x', /outside/],
  ])('refuses %s', (name, reason) => {
    const result = resolveInScope(name, scope);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(reason);
  });

  it('a scope without a folder names no file at all', () => {
    expect(resolveInScope('x.md', { roots: [], described: 'nothing' })).toMatchObject({ ok: false });
  });
});

describe('defaultReadScope', () => {
  it("is the DOT file's folder and the working directory", () => {
    expect(defaultReadScope('pipelines/x.dot', '/repo')).toMatchObject({
      base: '/repo/pipelines',
      roots: ['/repo'],
    });
    expect(defaultReadScope('/elsewhere/x.dot', '/repo')).toMatchObject({
      base: '/elsewhere',
      roots: ['/elsewhere', '/repo'],
    });
    expect(defaultReadScope(undefined, '/repo')).toMatchObject({ base: '/repo', roots: ['/repo'] });
  });

  it('keeps no folder that another one already contains', () => {
    expect(uniqueFolders(['/a/b', '/a', '/c', '/a/b/'])).toEqual(['/a', '/c']);
  });
});
