import type { BranchResult, HandlerServices } from '../handler-types.js';
import type { BranchCheckpointLog } from './branch-checkpoints.js';
import type { BranchFolders } from './branch-folders.js';
import type { Branch, FanOut } from './fan-out.js';
import type { ParallelResult } from './parallel-result.js';

/** What running one branch needs besides the fan-out. */
export interface BranchRunDeps {
  nodeId: string;
  services: HandlerServices;
  checkpoints: BranchCheckpointLog;
  /** The values every branch starts from (`runBranch` gives each its own deep copy). */
  startValues: () => Record<string, unknown>;
  /** The branches' own folders (`isolation="worktree"`); none: they share the run's. */
  folders?: BranchFolders;
}

function recordOf(branch: Branch, result: BranchResult): ParallelResult {
  const { outcome } = result;
  return {
    branch_id: branch.id,
    status: outcome.status,
    ...(outcome.notes === undefined ? {} : { notes: outcome.notes }),
    ...(outcome.failure_reason === undefined ? {} : { failure_reason: outcome.failure_reason }),
    ...(outcome.score === undefined ? {} : { score: outcome.score }),
    ...(result.stoppedAt === undefined ? {} : { stopped_at: result.stoppedAt }),
  };
}

/** The record with the branch's snapshot; a branch whose snapshot was skipped cannot join: it failed. */
async function withCommit(record: ParallelResult, branch: Branch, folders: BranchFolders) {
  const commit = await folders.finish(branch.id);
  if (commit) return { ...record, commit };
  return {
    ...record,
    status: 'fail' as const,
    failure_reason:
      'the snapshot of its folder was skipped (over the size budget or the file limit), so its work cannot join',
  };
}

/** Run one branch to its end and record it: saved before anyone sees it, so a crash never runs it again. */
export async function runOneBranch(fanOut: FanOut, branch: Branch, deps: BranchRunDeps): Promise<void> {
  const { services, folders } = deps;
  branch.started = true;
  branch.startedAt = Date.now();
  services.emit(
    'parallel.branch.start',
    { branch: branch.id, index: branch.index, start_node: branch.startNodeId },
    deps.nodeId,
  );
  const signal = branch.controller.signal;
  // A branch stopped by cancellation (first_success satisfied, fail_fast, abort) counts as skipped.
  const cancelled = (): ParallelResult => ({
    branch_id: branch.id,
    status: 'skipped',
    cancelled: true,
    failure_reason: fanOut.cancelReason ?? 'cancelled',
  });
  try {
    const folder = folders ? await folders.open(branch.id) : undefined;
    const result = await services.runBranch({
      branchId: branch.id,
      parallelNodeId: deps.nodeId,
      startNodeId: branch.startNodeId,
      context: deps.startValues(),
      signal,
      ...folder,
    });
    branch.result = result;
    if (signal.aborted) return fanOut.finish(branch, cancelled());
    const record = folders
      ? await withCommit(recordOf(branch, result), branch, folders)
      : recordOf(branch, result);
    await deps.checkpoints.save({ record, result });
    fanOut.finish(branch, record);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    fanOut.finish(
      branch,
      signal.aborted ? cancelled() : { branch_id: branch.id, status: 'fail', failure_reason: reason },
    );
  }
}
