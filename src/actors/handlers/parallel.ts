import type { PipelineGraph, PipelineNode } from '../../compiler/ir.js';
import type { Outcome } from '../../compiler/outcome.js';
import { findFanIn } from '../../compiler/routing/find-fan-in.js';
import type { BranchResult, NodeHandler } from '../handler-types.js';
import { fileBranchCheckpoints } from '../parallel/branch-checkpoints.js';
import { evaluateJoin, type JoinVerdict } from '../parallel/evaluate-join.js';
import { mergeBranchUpdates } from '../parallel/merge-branch-updates.js';
import { readParallelPolicy } from '../parallel/parallel-policy.js';
import type { ParallelResult } from '../parallel/parallel-result.js';

interface Branch {
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

const isSuccess = (status: string) => status === 'success' || status === 'partial_success';
const isFailure = (status: string) => status === 'fail' || status === 'retry';

/** Branch ids are target ids; a second edge to the same target gets `#2`, so results stay apart. */
function branchIds(targets: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return targets.map((target) => {
    const count = (seen.get(target) ?? 0) + 1;
    seen.set(target, count);
    return count === 1 ? target : `${target}#${count}`;
  });
}

/** The node names a retry target that exists: its FAIL jumps there rather than to the fan-in. */
function hasRetryTarget(node: PipelineNode, graph: PipelineGraph): boolean {
  return [node.attrs.retry_target, node.attrs.fallback_retry_target].some(
    (target) => target?.trim() && graph.nodes.some((n) => n.id === target.trim()),
  );
}

/** The fan-in most branches stopped at, else the one the graph leads them to. */
function convergence(
  branches: readonly Branch[],
  fallback: () => string | undefined,
  isFanIn: (id: string) => boolean,
) {
  const counts = new Map<string, number>();
  for (const branch of branches) {
    const at = branch.result?.stoppedAt;
    if (at && isFanIn(at)) counts.set(at, (counts.get(at) ?? 0) + 1);
  }
  let best: string | undefined;
  for (const [id, count] of counts) if (best === undefined || count > (counts.get(best) ?? 0)) best = id;
  return best ?? fallback();
}

/**
 * Fans out to every outgoing edge at once (docs/semantics.md): each branch runs through
 * `services.runBranch` on its own clone of the context, at most `max_parallel` at a time. The join and
 * error policies (see `evaluateJoin`) decide the outcome; once it is decided, running branches are
 * aborted and unstarted ones never start. Results go to `parallel.results`, each branch's context
 * updates to `<branch id>.<key>`, and the run continues at the fan-in node the branches converged on.
 */
export const parallelHandler: NodeHandler = async ({ node, graph, context, signal, services, stageDir }) => {
  const edges = graph.edges.filter((edge) => edge.source === node.id);
  if (edges.length === 0) return { status: 'fail', failure_reason: 'parallel node has no outgoing edges' };
  const read = readParallelPolicy(node, edges.length);
  if (!read.ok) return { status: 'fail', failure_reason: read.reason };
  const { policy } = read;
  // Handlers may read clocks (the machine may not): durations of the fan-out and of each branch.
  const began = Date.now();
  const ids = branchIds(edges.map((edge) => edge.target));
  const branches: Branch[] = edges.map((edge, i) => ({
    id: ids[i]!,
    startNodeId: edge.target,
    index: i,
    controller: new AbortController(),
    started: false,
  }));
  services.emit(
    'parallel.start',
    { branches: ids, join_policy: policy.join, error_policy: policy.error, max_parallel: policy.maxParallel },
    node.id,
  );

  // Branches an interrupted earlier attempt of this visit finished (after a crash or a hard stop).
  const kept = services.branchCheckpoints ?? fileBranchCheckpoints({ durable: services.durable ?? true });
  const checkpoints = kept.open(stageDir);
  const restored = checkpoints.load();

  let verdict: JoinVerdict = { settled: false };
  let cancelReason: string | undefined;
  const cancelAll = (reason: string) => {
    cancelReason ??= reason;
    for (const branch of branches) if (!branch.record) branch.controller.abort(new Error(reason));
  };
  // The node's abort reaches every branch through its own controller: one signal per branch.
  const onAbort = () => cancelAll('cancelled');
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });

  const tally = () => {
    const done = branches.filter((b) => b.record && !b.record.cancelled);
    return {
      total: branches.length,
      succeeded: done.filter((b) => isSuccess(b.record!.status)).length,
      failed: done.filter((b) => isFailure(b.record!.status)).length,
      pending: branches.filter((b) => !b.record).length,
    };
  };

  // A branch that finished here was saved (`runOne`) before it comes here.
  const finishBranch = (branch: Branch, record: ParallelResult, wasRestored = false) => {
    branch.record = record;
    services.emit(
      'parallel.branch.complete',
      {
        branch: branch.id,
        index: branch.index,
        status: record.status,
        success: isSuccess(record.status),
        // A restored branch ran before the interruption: its time then is not known here.
        duration_ms: branch.startedAt === undefined ? 0 : Date.now() - branch.startedAt,
        ...(record.cancelled ? { cancelled: true } : {}),
        ...(wasRestored ? { restored: true } : {}),
      },
      node.id,
    );
    if (!verdict.settled && !signal.aborted) {
      verdict = evaluateJoin(policy, tally());
      if (verdict.settled) cancelAll(`cancelled: ${verdict.reason}`);
    }
  };

  // Every branch starts from the same values (`runBranch` gives each its own deep copy). Read through
  // the context once: it is a view (visit counts added on the fly) whose every key costs a proxy trap.
  let shared: Record<string, unknown> | undefined;
  const startValues = () => {
    shared ??= context.toDict();
    return shared;
  };

  const runOne = async (branch: Branch): Promise<void> => {
    branch.started = true;
    branch.startedAt = Date.now();
    services.emit(
      'parallel.branch.start',
      { branch: branch.id, index: branch.index, start_node: branch.startNodeId },
      node.id,
    );
    const branchSignal = branch.controller.signal;
    // A branch stopped by cancellation (first_success satisfied, fail_fast, abort) counts as skipped.
    const cancelled = () => ({
      branch_id: branch.id,
      status: 'skipped' as const,
      cancelled: true,
      failure_reason: cancelReason ?? 'cancelled',
    });
    try {
      const result = await services.runBranch({
        branchId: branch.id,
        parallelNodeId: node.id,
        startNodeId: branch.startNodeId,
        context: startValues(),
        signal: branchSignal,
      });
      branch.result = result;
      const { outcome } = result;
      const record: ParallelResult = branchSignal.aborted
        ? cancelled()
        : {
            branch_id: branch.id,
            status: outcome.status,
            ...(outcome.notes === undefined ? {} : { notes: outcome.notes }),
            ...(outcome.failure_reason === undefined ? {} : { failure_reason: outcome.failure_reason }),
            ...(outcome.score === undefined ? {} : { score: outcome.score }),
            ...(result.stoppedAt === undefined ? {} : { stopped_at: result.stoppedAt }),
          };
      // Durable before anything else sees it: a crash from then on never runs this branch again.
      if (!record.cancelled) await checkpoints.save({ record, result });
      finishBranch(branch, record);
    } catch (error) {
      finishBranch(
        branch,
        branchSignal.aborted
          ? cancelled()
          : {
              branch_id: branch.id,
              status: 'fail',
              failure_reason: (error as Error).message ?? String(error),
            },
      );
    }
  };

  for (const branch of branches) {
    const saved = restored.get(branch.id);
    if (!saved) continue;
    branch.started = true;
    branch.result = saved.result;
    finishBranch(branch, saved.record, true);
  }

  // A fixed pool of `max_parallel` workers pulling the next unstarted branch.
  let next = 0;
  const worker = async () => {
    for (;;) {
      if (verdict.settled || cancelReason !== undefined) return;
      const branch = branches[next++];
      if (!branch) return;
      if (branch.record) continue;
      await runOne(branch);
    }
  };
  const pool = Promise.all(Array.from({ length: Math.min(policy.maxParallel, branches.length) }, worker));
  // The workers have started their first branches (synchronously, up to their first wait).
  if (branches.some((b) => b.started && !b.record)) checkpoints.prepare();
  try {
    await pool;
  } finally {
    signal.removeEventListener('abort', onAbort);
    checkpoints.close();
  }
  for (const branch of branches) {
    if (!branch.record) {
      branch.record = {
        branch_id: branch.id,
        status: 'skipped',
        cancelled: true,
        failure_reason: `${cancelReason ?? 'cancelled'} (not started)`,
      };
    }
  }

  // The branches' log entries join the run's log (a branch's own checkpoint is not the run's).
  for (const branch of branches) {
    for (const entry of branch.result?.logs ?? []) context.appendLog({ ...entry, branch: branch.id });
  }
  const results = branches.map((branch) => branch.record!);
  const counts = tally();
  if (signal.aborted) {
    services.emit(
      'parallel.complete',
      { status: 'fail', cancelled: true, duration_ms: Date.now() - began },
      node.id,
    );
    return { status: 'fail', failure_reason: 'cancelled', context_updates: { 'parallel.results': results } };
  }
  const final = verdict.settled ? verdict : evaluateJoin(policy, { ...counts, pending: 0 });
  if (!final.settled) throw new Error('parallel: join not settled with no branch pending');
  const fanIn = convergence(
    branches,
    () =>
      findFanIn(
        graph,
        branches.map((b) => b.startNodeId),
      ),
    (id) => graph.nodes.some((n) => n.id === id && n.handler === 'parallel.fan_in'),
  );
  const outcome: Outcome = {
    status: final.status,
    notes: `Parallel ${policy.join}/${policy.error}: ${final.reason}`,
    ...(final.status === 'fail' ? { failure_reason: final.reason } : {}),
    context_updates: {
      'parallel.results': results,
      // The join's verdict, for the fan-in: it fails when the join failed, whatever the best branch did.
      'parallel.outcome': final.status,
      ...(final.status === 'fail' ? { 'parallel.failure_reason': final.reason } : {}),
      ...mergeBranchUpdates(
        branches
          .filter((b) => b.result && !b.record?.cancelled)
          .map((b) => ({ branchId: b.id, updates: b.result!.updates })),
      ),
    },
    ...(fanIn ? { suggested_next_ids: [fanIn] } : {}),
    // The fan-in is not an outgoing edge of this node, so edge selection could never pick it. A failed
    // join goes there too (the fan-in fails in turn, and its fail edge routes it), unless this node's own
    // retry target takes over (docs/decisions/0161-dead-ends-are-reported.md).
    ...(fanIn && (final.status !== 'fail' || !hasRetryTarget(node, graph)) ? { next_node: fanIn } : {}),
  };
  services.emit(
    'parallel.complete',
    {
      status: final.status,
      succeeded: counts.succeeded,
      failed: counts.failed,
      total: counts.total,
      duration_ms: Date.now() - began,
    },
    node.id,
  );
  checkpoints.clear();
  return outcome;
};
