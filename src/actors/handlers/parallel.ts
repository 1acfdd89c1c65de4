import type { Outcome } from '../../compiler/outcome.js';
import { definedFields } from '../../shared/defined-fields.js';
import { WriteLane } from '../../shared/write-lane.js';
import type { HandlerInput, NodeHandler } from '../handler-types.js';
import { fileBranchCheckpoints } from '../parallel/branch-checkpoints.js';
import { type BranchFolders, isolateBranches } from '../parallel/branch-folders.js';
import { evaluateJoin } from '../parallel/evaluate-join.js';
import { FanOut } from '../parallel/fan-out.js';
import { convergence, routeToFanIn } from '../parallel/fan-out-outcome.js';
import { FAN_OUT_TREE_KEY, type FanOutTree } from '../parallel/fan-out-tree.js';
import { mergeAtJoin } from '../parallel/merge-at-join.js';
import { mergeBranchUpdates } from '../parallel/merge-branch-updates.js';
import { type ParallelPolicy, readParallelPolicy } from '../parallel/parallel-policy.js';
import { rankBranchResults } from '../parallel/rank-branch-results.js';
import { runLimited } from '../parallel/run-limited.js';
import { runOneBranch } from '../parallel/run-one-branch.js';

/**
 * Fans out to every outgoing edge at once (docs/semantics.md S8): each branch runs through
 * `services.runBranch` on its own clone of the context, at most `max_parallel` at a time, and with
 * `isolation="worktree"` in a folder of its own made from the fan-out's snapshot. The join and error
 * policies (see `evaluateJoin`) decide the outcome; once it is decided, running branches are aborted and
 * unstarted ones never start. Results go to `parallel.results`, each branch's context updates to
 * `<branch id>.<key>`, and the run continues at the fan-in node the branches converged on (where
 * isolated branches are merged; with no fan-in, here).
 */
export const parallelHandler: NodeHandler = async (input) => {
  const { node, graph, signal, services } = input;
  const targets = graph.edges.filter((edge) => edge.source === node.id).map((edge) => edge.target);
  if (targets.length === 0) return { status: 'fail', failure_reason: 'parallel node has no outgoing edges' };
  const read = readParallelPolicy(node, targets.length);
  if (!read.ok) return { status: 'fail', failure_reason: read.reason };
  const { policy } = read;
  // Handlers may read clocks (the machine may not): durations of the fan-out and of each branch.
  const began = Date.now();
  const fanOut = new FanOut(targets, policy, node.id, services.emit, signal);
  services.emit(
    'parallel.start',
    {
      branches: fanOut.branches.map((b) => b.id),
      join_policy: policy.join,
      error_policy: policy.error,
      max_parallel: policy.maxParallel,
    },
    node.id,
  );
  const isolated =
    policy.isolation === 'worktree' ? await isolateBranches(services, node.id, input.runDir) : undefined;
  if (isolated && !isolated.ok) return { status: 'fail', failure_reason: isolated.reason };
  const folders = isolated?.folders;
  await runBranches(input, fanOut, policy, folders);
  const outcome = await joinOutcome(input, fanOut, policy, folders);
  services.emit('parallel.complete', completeData(outcome, fanOut, began, signal.aborted), node.id);
  return outcome;
};

/** Run the branches an interrupted earlier attempt of this visit did not finish; restore the others. */
async function runBranches(
  input: HandlerInput,
  fanOut: FanOut,
  policy: ParallelPolicy,
  folders: BranchFolders | undefined,
): Promise<void> {
  const { node, context, signal, services, stageDir } = input;
  // A machine given no recorder: the branches are kept on a lane of this visit's own.
  const kept =
    services.branchCheckpoints ?? fileBranchCheckpoints(new WriteLane({ durable: services.durable ?? true }));
  const checkpoints = kept.open(stageDir);
  const restored = checkpoints.load();
  // The node's abort reaches every branch through its own controller: one signal per branch.
  const onAbort = () => fanOut.cancelAll('cancelled');
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  for (const branch of fanOut.branches) {
    const saved = restored.get(branch.id);
    if (!saved) continue;
    branch.started = true;
    branch.result = saved.result;
    fanOut.finish(branch, saved.record, true);
  }
  // Read through the context once: it is a view (visit counts added on the fly) whose every key costs a proxy trap.
  let shared: Record<string, unknown> | undefined;
  const deps = {
    nodeId: node.id,
    services,
    checkpoints,
    startValues: () => {
      shared ??= context.toDict();
      return shared;
    },
    ...definedFields({ folders }),
  };
  const pending = fanOut.branches.filter((b) => !b.record);
  const pool = runLimited(
    pending,
    policy.maxParallel,
    (b) => runOneBranch(fanOut, b, deps),
    () => fanOut.stopped,
  );
  // The first branches have started (synchronously, up to their first wait).
  if (fanOut.branches.some((b) => b.started && !b.record)) checkpoints.prepare();
  try {
    await pool;
  } finally {
    signal.removeEventListener('abort', onAbort);
    checkpoints.close();
    await folders?.close();
  }
  if (!signal.aborted) checkpoints.clear();
}

/** The fan-out's outcome once every branch ended: the join's verdict, the results, where to go next. */
async function joinOutcome(
  input: HandlerInput,
  fanOut: FanOut,
  policy: ParallelPolicy,
  folders: BranchFolders | undefined,
): Promise<Outcome> {
  const { node, graph, context, signal } = input;
  // The branches' log entries join the run's log (a branch's own checkpoint is not the run's).
  for (const branch of fanOut.branches) {
    for (const entry of branch.result?.logs ?? []) context.appendLog({ ...entry, branch: branch.id });
  }
  const results = fanOut.records();
  if (signal.aborted)
    return { status: 'fail', failure_reason: 'cancelled', context_updates: { 'parallel.results': results } };
  const final = fanOut.verdict.settled
    ? fanOut.verdict
    : evaluateJoin(policy, { ...fanOut.tally(), pending: 0 });
  if (!final.settled) throw new Error('parallel: join not settled with no branch pending');
  const fanIn = convergence(fanOut.branches, graph);
  const tree: FanOutTree | null = folders ? { node: node.id, base: folders.base, merge: policy.merge } : null;
  // Without a fan-in the branches join here.
  const merged =
    tree && !fanIn && final.status !== 'fail'
      ? await mergeAtJoin(input.services, tree, results, rankBranchResults(results)[0]?.branch_id)
      : undefined;
  if (merged && !merged.ok) return merged.outcome;
  return {
    status: final.status,
    notes: `Parallel ${policy.join}/${policy.error}: ${final.reason}`,
    ...(final.status === 'fail' ? { failure_reason: final.reason } : {}),
    context_updates: {
      'parallel.results': results,
      // The join's verdict, for the fan-in: it fails when the join failed, whatever the best branch did.
      'parallel.outcome': final.status,
      ...(final.status === 'fail' ? { 'parallel.failure_reason': final.reason } : {}),
      [FAN_OUT_TREE_KEY]: tree,
      ...merged?.updates,
      ...mergeBranchUpdates(
        fanOut.branches.flatMap((b) =>
          b.result && !b.record?.cancelled ? [{ branchId: b.id, updates: b.result.updates }] : [],
        ),
      ),
    },
    ...routeToFanIn(fanIn, final.status, node, graph),
  };
}

function completeData(outcome: Outcome, fanOut: FanOut, began: number, cancelled: boolean) {
  const duration_ms = Date.now() - began;
  if (cancelled) return { status: 'fail' as const, cancelled: true as const, duration_ms };
  const counts = fanOut.tally();
  return {
    status: outcome.status,
    succeeded: counts.succeeded,
    failed: counts.failed,
    total: counts.total,
    duration_ms,
  };
}
