import type { Outcome } from '../../compiler/outcome.js';
import { type MergeConflict, mergeSnapshots } from '../../working-tree/merge-snapshots.js';
import type { HandlerServices } from '../handler-types.js';
import type { FanOutTree } from './fan-out-tree.js';
import type { ParallelResult } from './parallel-result.js';

const isSuccess = (record: ParallelResult): boolean =>
  !record.cancelled && (record.status === 'success' || record.status === 'partial_success');

/** The branches a join merges: every successful one in declaration order, the selected one, or none. */
function sidesOf(fanOut: FanOutTree, results: readonly ParallelResult[], bestId: string | undefined) {
  const chosen =
    fanOut.merge === 'all'
      ? results.filter(isSuccess)
      : fanOut.merge === 'best'
        ? results.filter((r) => r.branch_id === bestId && isSuccess(r))
        : [];
  return chosen.flatMap((r) => (r.commit ? [{ id: r.branch_id, commit: r.commit }] : []));
}

const describeConflicts = (conflicts: readonly MergeConflict[]): string =>
  conflicts.map((c) => `${c.path} (${c.branches.join(', ')})`).join('; ');

/**
 * Bring isolated branches into the folder where they join (the fan-in, or the parallel node when they
 * have none): their snapshots are merged onto the folder as it is now, and the folder becomes the
 * merge only when every merge was clean. A conflict leaves the folder untouched and is the joining
 * node's FAIL, naming the files and the branches in `merge.conflicts`, so a fail edge routes to repair.
 * Returns the context updates on success, or the failing outcome.
 */
export async function mergeAtJoin(
  services: Pick<HandlerServices, 'workingTree'>,
  fanOut: FanOutTree,
  results: readonly ParallelResult[],
  bestId?: string,
): Promise<{ ok: true; updates: Record<string, unknown> } | { ok: false; outcome: Outcome }> {
  const sides = sidesOf(fanOut, results, bestId);
  const tree = sides.length > 0 ? await services.workingTree?.() : undefined;
  if (!tree) return { ok: true, updates: { 'merge.conflicts': [] } };
  const changed = tree.head ? await tree.changedSince(tree.head) : ['(no snapshot yet)'];
  const ours = changed.length === 0 && tree.head ? tree.head : (await tree.snapshot('before merge')).commit;
  if (!ours) throw new Error('the folder could not be snapshotted before the merge');
  const merged = await mergeSnapshots(tree, fanOut.base, ours, sides);
  if (!merged.ok) {
    return {
      ok: false,
      outcome: {
        status: 'fail',
        failure_reason: `merge conflict in ${describeConflicts(merged.conflicts)}`,
        context_updates: { 'merge.conflicts': merged.conflicts },
      },
    };
  }
  if (merged.commit !== ours) await tree.restore(merged.commit);
  return {
    ok: true,
    updates: {
      'merge.conflicts': [],
      'merge.commit': merged.commit,
      'merge.branches': sides.map((s) => s.id),
    },
  };
}
