import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { locateRepository } from './locate-repository.js';
import { RunTree } from './run-tree.js';
import { addWorktree, removeWorktree } from './tree-worktree.js';

const RUNS_PREFIX = 'refs/attractor/runs/';

/** A node or branch id as one ref component: git's forbidden characters, a leading dot and `.lock` go. */
export function refSegment(id: string): string {
  const plain = id.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^\.+/, '_');
  return plain.endsWith('.lock') ? `${plain}_` : plain || '_';
}

/**
 * The ref of a branch's snapshots: `refs/attractor/branches/<run id>/<parallel node>/<branch>` for the
 * run's own fan-outs (beside the run's ref, not under it: a ref cannot also be a folder of refs), and
 * `<branch ref>.nested/<parallel node>/<branch>` for a fan-out inside a branch.
 */
export function branchRef(parentRef: string, parallelNode: string, branch: string): string {
  const below = `${refSegment(parallelNode)}/${refSegment(branch)}`;
  return parentRef.startsWith(RUNS_PREFIX)
    ? `refs/attractor/branches/${parentRef.slice(RUNS_PREFIX.length)}/${below}`
    : `${parentRef}.nested/${below}`;
}

/** Where a branch works and what it snapshots with. */
export interface BranchTreePlace {
  /** The branch's folder (made here; removed by `closeBranchTree`). */
  dir: string;
  /** The branch's ref. */
  ref: string;
}

/**
 * A folder holding the fan-out's snapshot `base`, for one branch to work in: a `git worktree` of the
 * user's repository when the run works in its top folder (so `git` works there), a checkout otherwise.
 * The returned tree snapshots the folder onto the branch's ref (its first snapshot's parent is `base`),
 * with an index of its own: branches snapshot at once without sharing a lock.
 */
export async function openBranchTree(
  parent: RunTree,
  base: string,
  place: BranchTreePlace,
): Promise<RunTree> {
  await closeBranchTree(parent, place.dir);
  mkdirSync(dirname(place.dir), { recursive: true });
  const index = `${place.dir}.index`;
  const made = await addWorktree(parent, base, place.dir, { keepIndex: index });
  const repository = made.worktree ? locateRepository(place.dir) : parent.repository;
  const tree = new RunTree(
    { workDir: place.dir, runDir: dirname(parent.gitDir), runId: '', ref: place.ref, index },
    repository,
  );
  tree.adopt(base);
  return tree;
}

/** Remove a branch's folder (and its worktree entry, and its index); its commits stay on its ref. */
export async function closeBranchTree(parent: RunTree, dir: string): Promise<void> {
  if (existsSync(dir)) await removeWorktree(parent, dir);
  rmSync(`${dir}.index`, { force: true });
}

export const branchTreeDir = (root: string, parallelNode: string, branch: string): string =>
  join(root, refSegment(parallelNode), refSegment(branch));
