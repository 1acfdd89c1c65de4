export { parseByteSize } from './byte-size.js';
export { gitAvailable } from './git-available.js';
export { GitCommandError, type GitCommandOptions, type GitPlace, git } from './git-command.js';
export {
  missingSnapshotError,
  openRunTree,
  RunTree,
  type RunTreeOptions,
  type TreeSnapshot,
} from './run-tree.js';
export type { SnapshotSkip } from './snapshot-plan.js';
export { bundleSnapshots, unbundleSnapshots } from './tree-bundle.js';
export { runRef, TREE_GIT_DIR } from './tree-git-dir.js';
export { DEFAULT_TREE_LIMITS, type TreeLimits, TreeLimitsSchema } from './tree-limits.js';
export { addWorktree, removeWorktree } from './tree-worktree.js';
