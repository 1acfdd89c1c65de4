import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  branchRef,
  closeBranchTree,
  openBranchTree,
  refSegment,
} from '../../src/working-tree/branch-tree.js';
import { gitAvailable } from '../../src/working-tree/git-available.js';
import { openRunTree } from '../../src/working-tree/run-tree.js';
import { tempDir } from '../helpers/temp-dir.js';

const userGit = (dir: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
  });

describe('branch refs', () => {
  it.each([
    ['refs/attractor/runs/r1', 'fan', 'a', 'refs/attractor/branches/r1/fan/a'],
    ['refs/attractor/runs/r1', 'fan out', 'b#2', 'refs/attractor/branches/r1/fan_out/b_2'],
    ['refs/attractor/branches/r1/fan/a', 'inner', 'x', 'refs/attractor/branches/r1/fan/a.nested/inner/x'],
    ['refs/attractor/runs/r1', '.hidden', 'x.lock', 'refs/attractor/branches/r1/_hidden/x.lock_'],
  ])('%s + %s/%s → %s', (parent, node, branch, ref) => {
    expect(branchRef(parent, node, branch)).toBe(ref);
    execFileSync('git', ['check-ref-format', ref]);
  });

  it('keeps a ref component plain', () => {
    expect(refSegment('')).toBe('_');
    expect(refSegment('a..b')).toBe('a..b'.replace(/[^A-Za-z0-9_.-]/g, '_'));
  });
});

describe('openBranchTree', () => {
  it('in a repository: a git worktree where git works, snapshotting onto its own ref, then removed', async () => {
    const repo = tempDir('attractor-branch-repo-');
    userGit(repo, 'init', '-q');
    writeFileSync(join(repo, 'code.txt'), 'v1\n');
    writeFileSync(join(repo, '.gitignore'), '.runs/\n');
    userGit(repo, 'add', '.');
    userGit(repo, 'commit', '-qm', 'one');
    const tree = await openRunTree(
      { workDir: repo, runDir: join(repo, '.runs', 'r1'), runId: 'r1' },
      await gitAvailable(),
    );
    if (!tree) throw new Error('git is missing');
    const base = (await tree.snapshot('fan-out')).commit ?? '';
    const dir = join(tempDir('attractor-branch-wt-'), 'a');
    const ref = branchRef(tree.ref, 'fan', 'a');
    const branch = await openBranchTree(tree, base, { dir, ref });
    expect(readFileSync(join(dir, 'code.txt'), 'utf8')).toBe('v1\n');
    // The user's git sees the folder as a worktree of their repository, clean at the snapshot.
    expect(userGit(dir, 'status', '--porcelain')).toBe('');
    writeFileSync(join(dir, 'new.txt'), 'by the branch\n');
    const { commit, parent } = await branch.snapshot('branch a');
    expect(parent).toBe(base);
    expect(userGit(repo, 'rev-parse', ref).trim()).toBe(commit);
    expect(tree.head).toBe(base);
    await closeBranchTree(tree, dir);
    expect(existsSync(dir)).toBe(false);
    expect(userGit(repo, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(userGit(repo, 'show', `${commit}:new.txt`)).toBe('by the branch\n');
  });

  it('outside git: a checkout of the snapshot with an index of its own', async () => {
    const root = tempDir('attractor-branch-plain-');
    const work = join(root, 'work');
    mkdirSync(work);
    writeFileSync(join(work, 'f.txt'), 'f\n');
    const tree = await openRunTree(
      { workDir: work, runDir: join(root, 'run'), runId: 'r' },
      await gitAvailable(),
    );
    if (!tree) throw new Error('git is missing');
    const base = (await tree.snapshot('fan-out')).commit ?? '';
    const dir = join(root, 'branches', 'x');
    const branch = await openBranchTree(tree, base, { dir, ref: branchRef(tree.ref, 'fan', 'x') });
    expect(readdirSync(dir)).toEqual(['f.txt']);
    expect(existsSync(`${dir}.index`)).toBe(true);
    const unchanged = await branch.snapshot('branch x');
    const names = execFileSync(
      'git',
      ['--git-dir', tree.gitDir, 'ls-tree', '--name-only', unchanged.commit ?? ''],
      {
        encoding: 'utf8',
      },
    );
    expect(names.trim()).toBe('f.txt');
    await closeBranchTree(tree, dir);
    expect(existsSync(dir) || existsSync(`${dir}.index`)).toBe(false);
  });
});
