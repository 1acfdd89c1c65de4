import { join } from 'node:path';
import { branchRef, branchTreeDir, closeBranchTree, openBranchTree } from '../../working-tree/branch-tree.js';
import type { RunTree } from '../../working-tree/run-tree.js';
import type { HandlerServices } from '../handler-types.js';

/** Where one isolated branch works: what `runBranch` is given. */
export interface BranchFolder {
  workingDir: string;
  workingTree: () => Promise<RunTree | undefined>;
}

/** The folders of an isolated fan-out's branches, each made from the fan-out's snapshot. */
export interface BranchFolders {
  /** The fan-out's snapshot. */
  base: string;
  /** Make the branch's folder (a worktree of `base`). */
  open(branchId: string): Promise<BranchFolder>;
  /** The branch's snapshot as it ended, and its folder removed; undefined when the snapshot was skipped. */
  finish(branchId: string): Promise<string | undefined>;
  /** Remove every folder still there (branches cancelled or failed before they finished). */
  close(): Promise<void>;
}

/**
 * Snapshot the folder the fan-out works in, and give each branch a folder of its own made from that
 * snapshot (`<run dir>/worktrees/<parallel node>/<branch>`), with a ref of its own for its commits.
 * Returns why not when the run keeps no tree or the snapshot was skipped: isolated branches need both.
 */
export async function isolateBranches(
  services: Pick<HandlerServices, 'workingTree'>,
  nodeId: string,
  runDir: string,
): Promise<{ ok: true; folders: BranchFolders } | { ok: false; reason: string }> {
  const tree = await services.workingTree?.();
  if (!tree)
    return {
      ok: false,
      reason:
        'isolation="worktree" needs the run\'s working tree: git 2.30 or newer on the PATH, in a run that snapshots its files',
    };
  const snapshot = await tree.snapshot(`fan-out ${nodeId}`);
  const base = snapshot.commit;
  if (!base)
    return {
      ok: false,
      reason: `isolation="worktree" needs a snapshot of the folder, and it was skipped (${snapshot.skipped ?? 'no commit'})`,
    };
  return { ok: true, folders: branchFolders(tree, base, nodeId, join(runDir, 'worktrees')) };
}

function branchFolders(tree: RunTree, base: string, nodeId: string, root: string): BranchFolders {
  const open = new Map<string, { dir: string; tree: RunTree }>();
  const dirOf = (branchId: string): string => branchTreeDir(root, nodeId, branchId);
  return {
    base,
    async open(branchId) {
      const dir = dirOf(branchId);
      const branchTree = await openBranchTree(tree, base, {
        dir,
        ref: branchRef(tree.ref, nodeId, branchId),
      });
      open.set(branchId, { dir, tree: branchTree });
      return { workingDir: dir, workingTree: async () => branchTree };
    },
    async finish(branchId) {
      const opened = open.get(branchId);
      if (!opened) return undefined;
      const { commit } = await opened.tree.snapshot(`branch ${branchId}`);
      open.delete(branchId);
      await closeBranchTree(tree, opened.dir);
      return commit;
    },
    async close() {
      const left = [...open.values()];
      open.clear();
      await Promise.all(left.map((opened) => closeBranchTree(tree, opened.dir)));
    },
  };
}
