/** `isolation` values of a parallel node: `worktree` gives each branch a folder of its own. */
export const ISOLATION_MODES = ['none', 'worktree'] as const;
export type IsolationMode = (typeof ISOLATION_MODES)[number];

/**
 * `merge` values: where isolated branches join, `all` merges every successful branch in declaration
 * order, `best` takes the branch the fan-in selected, `none` leaves the parent's folder as it was.
 */
export const MERGE_MODES = ['all', 'best', 'none'] as const;
export type MergeMode = (typeof MERGE_MODES)[number];
