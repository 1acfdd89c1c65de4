import { copyFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { type ConcurrencyLimit, concurrencyLimit } from '../shared/concurrency-limit.js';
import { git } from './git-command.js';
import type { RunTree } from './run-tree.js';

/**
 * `git worktree add` reads every worktree's entry while another one may be half made: one at a time per
 * repository in this process, and a few tries for a run in another process doing the same.
 */
const worktreeLanes = new Map<string, ConcurrencyLimit>();

async function worktreeCommand(commonDir: string, args: readonly string[]): Promise<void> {
  let lane = worktreeLanes.get(commonDir);
  if (!lane) {
    lane = concurrencyLimit(1);
    worktreeLanes.set(commonDir, lane);
  }
  for (let attempt = 1; ; attempt++) {
    try {
      await lane(() => git({ gitDir: commonDir }, ['worktree', ...args]));
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}

/** The git directory a linked worktree's `.git` file names. */
function worktreeGitDir(dir: string): string | undefined {
  try {
    const match = /^gitdir: (.+)$/m.exec(readFileSync(resolve(dir, '.git'), 'utf8'));
    return match?.[1] ? resolve(dir, match[1].trim()) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A folder holding the files of `commit`: a `git worktree` of the user's repository (detached at the
 * snapshot) when the run works in a repository's top folder, a checkout otherwise. Git makes the
 * worktree without checking anything out, and the run's own git directory writes the files and the
 * worktree's index: no filter, hook or fsmonitor the repository's configuration names runs.
 * Returns whether it is a worktree. `keepIndex`: a copy of the index the files were written with is
 * kept there, so snapshots of the folder hash only what changed.
 */
export async function addWorktree(
  tree: RunTree,
  commit: string,
  dir: string,
  options: { keepIndex?: string } = {},
): Promise<{ worktree: boolean }> {
  const target = resolve(dir);
  const repo = tree.repository;
  if (!repo || repo.top !== tree.workDir) {
    await tree.materialise(commit, target, options.keepIndex);
    return { worktree: false };
  }
  await worktreeCommand(repo.commonDir, ['add', '--quiet', '--detach', '--no-checkout', target, commit]);
  const index = worktreeGitDir(target);
  if (!index) throw new Error(`git worktree add made no .git file in ${target}`);
  const place = {
    gitDir: tree.gitDir,
    objects: repo.objects,
    workTree: target,
    index: resolve(index, 'index'),
  };
  // One command reads the snapshot into the index and writes its files (`--reset`: over what is there).
  await git(place, ['read-tree', '--reset', '-u', commit]);
  if (options.keepIndex) copyFileSync(place.index, options.keepIndex);
  return { worktree: true };
}

/** Remove a folder `addWorktree` made (its worktree entry too); its commits stay on the run's ref. */
export async function removeWorktree(tree: RunTree, dir: string): Promise<void> {
  const target = resolve(dir);
  const repo = tree.repository;
  if (repo && worktreeGitDir(target) && existsSync(target)) {
    await worktreeCommand(repo.commonDir, ['remove', '--force', target]);
    return;
  }
  rmSync(target, { recursive: true, force: true });
}
