import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitAvailable } from '../../src/working-tree/git-available.js';
import { openRunTree, type RunTree } from '../../src/working-tree/run-tree.js';
import { addWorktree, removeWorktree } from '../../src/working-tree/tree-worktree.js';
import { tempDir } from '../helpers/temp-dir.js';

const userGit = (dir: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
  });

async function open(workDir: string, runDir: string, runId = 'run-1', limits = {}): Promise<RunTree> {
  const tree = await openRunTree({ workDir, runDir, runId, limits }, await gitAvailable());
  if (!tree) throw new Error('git is missing');
  return tree;
}

/** A folder with a run directory beside it (not inside: nothing to exclude). */
function folders(): { work: string; runDir: string } {
  const root = tempDir('attractor-tree-');
  const work = join(root, 'work');
  mkdirSync(work);
  return { work, runDir: join(root, 'run') };
}

const write = (dir: string, path: string, text: string): void => {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), text);
};

describe('RunTree in a folder outside git', () => {
  it('snapshots as commits chained on the run ref, respecting .gitignore, with no .git in the folder', async () => {
    const { work, runDir } = folders();
    write(work, 'a.txt', 'one\n');
    write(work, '.gitignore', 'build/\n');
    write(work, 'build/out.bin', 'ignored\n');
    const tree = await open(work, runDir);
    const first = await tree.snapshot('start');
    write(work, 'b.txt', 'two\n');
    const second = await tree.snapshot('node write');
    expect(second.parent).toBe(first.commit);
    expect(existsSync(join(work, '.git'))).toBe(false);
    expect(tree.head).toBe(second.commit);
    const diff = await tree.diff(first.commit, second.commit ?? '', { stat: true });
    expect(diff).toContain('b.txt');
    expect(diff).not.toContain('build');
    const log = execFileSync('git', ['--git-dir', tree.gitDir, 'log', '--format=%s', tree.ref], {
      encoding: 'utf8',
    });
    expect(log.trim().split('\n')).toEqual(['node write', 'start']);
  });

  it('lists what differs from a snapshot and restores it (ignored files kept)', async () => {
    const { work, runDir } = folders();
    write(work, 'keep.txt', 'keep\n');
    write(work, 'gone.txt', 'gone\n');
    write(work, '.gitignore', '*.log\n');
    const tree = await open(work, runDir);
    const snap = await tree.snapshot('start');
    rmSync(join(work, 'gone.txt'));
    write(work, 'keep.txt', 'edited\n');
    write(work, 'new.txt', 'new\n');
    write(work, 'debug.log', 'ignored\n');
    expect(await tree.changedSince(snap.commit ?? '')).toEqual(['gone.txt', 'keep.txt', 'new.txt']);
    await tree.restore(snap.commit ?? '');
    expect(readFileSync(join(work, 'gone.txt'), 'utf8')).toBe('gone\n');
    expect(readFileSync(join(work, 'keep.txt'), 'utf8')).toBe('keep\n');
    expect(existsSync(join(work, 'new.txt'))).toBe(false);
    expect(existsSync(join(work, 'debug.log'))).toBe(true);
    expect(await tree.changedSince(snap.commit ?? '')).toEqual([]);
  });

  it('materialises a snapshot into a folder that was removed', async () => {
    const { work, runDir } = folders();
    write(work, 'src/main.ts', 'code\n');
    const tree = await open(work, runDir);
    const snap = await tree.snapshot('start');
    rmSync(work, { recursive: true });
    const again = await open(work, runDir);
    expect(again.holdsTree()).toBe(false);
    await again.materialise(snap.commit ?? '');
    expect(readFileSync(join(work, 'src/main.ts'), 'utf8')).toBe('code\n');
    expect(await again.changedSince(snap.commit ?? '')).toEqual([]);
  });

  it('leaves out files over the size limit and skips a snapshot over the budget or file count', async () => {
    const { work, runDir } = folders();
    write(work, 'small.txt', 'x');
    write(work, 'big.bin', 'y'.repeat(2000));
    const tree = await open(work, runDir, 'run-1', { maxFileBytes: 1000, budgetBytes: 1500, maxFiles: 5 });
    const first = await tree.snapshot('start');
    expect(first.omitted).toEqual(['big.bin']);
    const files = execFileSync(
      'git',
      ['--git-dir', tree.gitDir, 'ls-tree', '--name-only', first.commit ?? ''],
      {
        encoding: 'utf8',
      },
    );
    expect(files.trim()).toBe('small.txt');
    write(work, 'c.txt', 'z'.repeat(900));
    write(work, 'd.txt', 'z'.repeat(900));
    expect(await tree.snapshot('over budget')).toMatchObject({ skipped: 'budget', parent: first.commit });
    rmSync(join(work, 'd.txt'));
    for (const n of [1, 2, 3, 4, 5]) write(work, `f${n}.txt`, 'f');
    expect((await tree.snapshot('too many')).skipped).toBe('too-many-files');
    expect(tree.head).toBe(first.commit);
  });

  it('keeps the run directory out when it lies inside the folder; two runs there never collide', async () => {
    const work = tempDir('attractor-tree-');
    write(work, 'a.txt', 'a\n');
    // The runs root is left out as a whole (the CLI's and the server's do so): each run's records change.
    const exclude = [join(work, '.runs')];
    const available = await gitAvailable();
    const one = await openRunTree(
      { workDir: work, runDir: join(work, '.runs', 'one'), runId: 'one', exclude },
      available,
    );
    const two = await openRunTree(
      { workDir: work, runDir: join(work, '.runs', 'two'), runId: 'two', exclude },
      available,
    );
    if (!one || !two) throw new Error('git is missing');
    const [s1, s2] = await Promise.all([one.snapshot('start'), two.snapshot('start')]);
    write(work, 'b.txt', 'b\n');
    const [t1, t2] = await Promise.all([one.snapshot('next'), two.snapshot('next')]);
    expect(t1.parent).toBe(s1.commit);
    expect(t2.parent).toBe(s2.commit);
    const names = execFileSync(
      'git',
      ['--git-dir', one.gitDir, 'ls-tree', '-r', '--name-only', t1.commit ?? ''],
      {
        encoding: 'utf8',
      },
    );
    expect(names.trim().split('\n')).toEqual(['a.txt', 'b.txt']);
  });
});

describe('RunTree in a user repository', () => {
  /** A repository with a detached HEAD, a dirty index, unstaged changes, an untracked file and a stash. */
  function userRepo(): string {
    const dir = tempDir('attractor-repo-');
    userGit(dir, 'init', '-q');
    write(dir, 'tracked.txt', 'v1\n');
    write(dir, '.gitignore', 'node_modules/\n.runs/\n');
    userGit(dir, 'add', '.');
    userGit(dir, 'commit', '-qm', 'one');
    write(dir, 'tracked.txt', 'v2\n');
    userGit(dir, 'commit', '-qam', 'two');
    write(dir, 'tracked.txt', 'stashed\n');
    userGit(dir, 'stash', '-q');
    userGit(dir, 'checkout', '-q', '--detach', 'HEAD~1');
    write(dir, 'staged.txt', 'staged\n');
    userGit(dir, 'add', 'staged.txt');
    write(dir, 'tracked.txt', 'unstaged\n');
    write(dir, 'untracked.txt', 'mine\n');
    return dir;
  }

  const state = (dir: string) => ({
    status: userGit(dir, 'status', '--porcelain=v2', '--branch'),
    stash: userGit(dir, 'stash', 'list'),
    head: userGit(dir, 'rev-parse', 'HEAD'),
    index: readFileSync(join(dir, '.git', 'index')).toString('base64'),
    branches: userGit(dir, 'branch', '-a'),
  });

  it('snapshots, diffs and restores without changing HEAD, index, branches, stash or status', async () => {
    const dir = userRepo();
    const before = state(dir);
    const tree = await open(dir, join(dir, '.runs', 'r1'));
    const start = await tree.snapshot('start');
    write(dir, 'written.txt', 'by the run\n');
    const after = await tree.snapshot('node');
    rmSync(join(dir, 'written.txt'));
    await tree.restore(after.commit ?? '');
    await tree.restore(start.commit ?? '');
    expect(await tree.diff(start.commit, after.commit ?? '')).toContain('+by the run');
    expect(state(dir)).toEqual(before);
    // The snapshot holds the working files as they are: the unstaged and untracked ones too.
    const shown = userGit(dir, 'show', `${start.commit}:tracked.txt`);
    expect(shown).toBe('unstaged\n');
    // The ref is the user's repository's too, so its gc keeps the snapshots.
    expect(userGit(dir, 'rev-parse', 'refs/attractor/runs/run-1').trim()).toBe(start.commit);
  });

  it('makes a detached worktree of a snapshot and removes it', async () => {
    const dir = userRepo();
    const tree = await open(dir, join(dir, '.runs', 'r1'));
    const start = await tree.snapshot('start');
    const fork = join(tempDir('attractor-fork-'), 'copy');
    expect(await addWorktree(tree, start.commit ?? '', fork)).toEqual({ worktree: true });
    expect(readFileSync(join(fork, 'untracked.txt'), 'utf8')).toBe('mine\n');
    expect(userGit(fork, 'status', '--porcelain')).toBe('');
    await removeWorktree(tree, fork);
    expect(existsSync(fork)).toBe(false);
    expect(userGit(dir, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
  });
});

describe("git's configuration is no way out", () => {
  it('runs no hook, fsmonitor, clean filter or textconv the run wrote into .git', async () => {
    const dir = tempDir('attractor-attack-');
    userGit(dir, 'init', '-q');
    write(dir, 'code.c', 'int x;\n');
    userGit(dir, 'add', '.');
    userGit(dir, 'commit', '-qm', 'one');
    const marker = join(tempDir('attractor-marker-'), 'pwned');
    const payload = `#!/bin/sh\ntouch ${marker}\ncat\n`;
    write(dir, '.git/hooks/payload.sh', payload);
    execFileSync('chmod', ['+x', join(dir, '.git/hooks/payload.sh')]);
    for (const hook of ['post-checkout', 'reference-transaction', 'pre-commit', 'post-index-change'])
      write(dir, `.git/hooks/${hook}`, payload);
    execFileSync('chmod', ['-R', '+x', join(dir, '.git/hooks')]);
    const script = join(dir, '.git/hooks/payload.sh');
    userGit(dir, 'config', 'core.fsmonitor', script);
    userGit(dir, 'config', 'filter.evil.clean', script);
    userGit(dir, 'config', 'filter.evil.smudge', script);
    userGit(dir, 'config', 'diff.evil.textconv', script);
    write(dir, '.gitattributes', '* filter=evil diff=evil\n');
    const tree = await open(dir, join(tempDir('attractor-attack-run-'), 'run'));
    const first = await tree.snapshot('start');
    write(dir, 'code.c', 'int y;\n');
    const second = await tree.snapshot('node');
    await tree.diff(first.commit, second.commit ?? '');
    await tree.changedSince(first.commit ?? '');
    await tree.restore(first.commit ?? '');
    const fork = join(tempDir('attractor-attack-fork-'), 'fork');
    await addWorktree(tree, second.commit ?? '', fork);
    await removeWorktree(tree, fork);
    expect(existsSync(marker)).toBe(false);
    expect(readFileSync(join(dir, 'code.c'), 'utf8')).toBe('int x;\n');
  });
});
