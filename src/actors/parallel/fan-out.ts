import type { BranchResult, HandlerServices } from '../handler-types.js';
import { evaluateJoin, type JoinVerdict } from './evaluate-join.js';
import type { ParallelPolicy } from './parallel-policy.js';
import type { ParallelResult } from './parallel-result.js';

/** One branch of a fan-out: the edge it starts from, and how it ended. */
export interface Branch {
  id: string;
  startNodeId: string;
  /** Position of its edge among the parallel node's outgoing edges (0-based). */
  index: number;
  controller: AbortController;
  started: boolean;
  /** `Date.now()` when it started in this process (absent for a branch restored from its checkpoint). */
  startedAt?: number;
  result?: BranchResult;
  record?: ParallelResult;
}

export const isSuccess = (status: string): boolean => status === 'success' || status === 'partial_success';
const isFailure = (status: string): boolean => status === 'fail' || status === 'retry';

/** Branch ids are target ids; a second edge to the same target gets `#2`, so results stay apart. */
export function branchIds(targets: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return targets.map((target) => {
    const count = (seen.get(target) ?? 0) + 1;
    seen.set(target, count);
    return count === 1 ? target : `${target}#${count}`;
  });
}

/**
 * The branches of one parallel node visit and the join's verdict as they finish: once the join and
 * error policies decide, running branches are aborted and unstarted ones never start.
 */
export class FanOut {
  readonly branches: Branch[];
  verdict: JoinVerdict = { settled: false };
  cancelReason: string | undefined;

  constructor(
    targets: readonly string[],
    private readonly policy: ParallelPolicy,
    private readonly nodeId: string,
    private readonly emit: HandlerServices['emit'],
    private readonly signal: AbortSignal,
  ) {
    const ids = branchIds(targets);
    this.branches = targets.map((target, index) => ({
      id: ids[index] ?? target,
      startNodeId: target,
      index,
      controller: new AbortController(),
      started: false,
    }));
  }

  /** Whether no further branch may start. */
  get stopped(): boolean {
    return this.verdict.settled || this.cancelReason !== undefined;
  }

  cancelAll(reason: string): void {
    this.cancelReason ??= reason;
    for (const branch of this.branches) if (!branch.record) branch.controller.abort(new Error(reason));
  }

  tally() {
    const done = this.branches.flatMap((b) => (b.record && !b.record.cancelled ? [b.record] : []));
    return {
      total: this.branches.length,
      succeeded: done.filter((r) => isSuccess(r.status)).length,
      failed: done.filter((r) => isFailure(r.status)).length,
      pending: this.branches.filter((b) => !b.record).length,
    };
  }

  /** A branch ended (or was restored): said, and the join evaluated again. */
  finish(branch: Branch, record: ParallelResult, restored = false): void {
    branch.record = record;
    this.emit(
      'parallel.branch.complete',
      {
        branch: branch.id,
        index: branch.index,
        status: record.status,
        success: isSuccess(record.status),
        // A restored branch ran before the interruption: its time then is not known here.
        duration_ms: branch.startedAt === undefined ? 0 : Date.now() - branch.startedAt,
        ...(record.cancelled ? { cancelled: true } : {}),
        ...(restored ? { restored: true } : {}),
      },
      this.nodeId,
    );
    if (this.verdict.settled || this.signal.aborted) return;
    this.verdict = evaluateJoin(this.policy, this.tally());
    if (this.verdict.settled) this.cancelAll(`cancelled: ${this.verdict.reason}`);
  }

  /** Every branch's record: one never started is a skipped, cancelled one. */
  records(): ParallelResult[] {
    return this.branches.map(
      (branch) =>
        branch.record ?? {
          branch_id: branch.id,
          status: 'skipped',
          cancelled: true,
          failure_reason: `${this.cancelReason ?? 'cancelled'} (not started)`,
        },
    );
  }
}
