import type { HandlerInput, NodeHandler } from '../handler-types.js';
import { FAN_OUT_TREE_KEY, FanOutTreeSchema } from '../parallel/fan-out-tree.js';
import { mergeAtJoin } from '../parallel/merge-at-join.js';
import { type ParallelResult, ParallelResultsSchema } from '../parallel/parallel-result.js';
import { rankBranchResults } from '../parallel/rank-branch-results.js';
import { expandContextKeys } from '../prompt/expand-context-keys.js';

function describeCandidates(results: readonly ParallelResult[]): string {
  return results
    .map((r) => {
      const details = [
        r.status,
        r.score === undefined ? '' : `score ${r.score}`,
        r.notes ?? '',
        r.failure_reason ?? '',
      ]
        .filter((part) => part !== '')
        .join('; ');
      return `- ${r.branch_id}: ${details}`;
    })
    .join('\n');
}

/**
 * Collects a parallel node's branches: picks the best of `parallel.results` and writes
 * `parallel.fan_in.best_id` / `parallel.fan_in.best_outcome`. With a `prompt`, `services.llmRank`
 * chooses; without a router, or when it answers with an unknown id, the heuristic ranking decides.
 * SUCCESS when any branch succeeded and the parallel node's join did not fail (`parallel.outcome`); else
 * FAIL, so the fan-in's fail edge routes a failed fan-out (docs/decisions/0161-dead-ends-are-reported.md).
 * Isolated branches are merged into the folder here (`mergeAtJoin`): a conflict is this node's FAIL with
 * `merge.conflicts`.
 */
export const fanInHandler: NodeHandler = async (input) => {
  const { node, context, signal, services } = input;
  const raw = context.get('parallel.results');
  if (raw === undefined || (Array.isArray(raw) && raw.length === 0)) {
    return { status: 'fail', failure_reason: 'No parallel results to evaluate' };
  }
  const parsed = ParallelResultsSchema.safeParse(raw);
  if (!parsed.success) {
    return {
      status: 'fail',
      failure_reason: `parallel.results is malformed: ${parsed.error.issues[0]?.message}`,
    };
  }
  const ranked = rankBranchResults(parsed.data);
  let best = ranked[0]!;
  if (node.attrs.prompt && services.llmRank) {
    const candidates = ranked.map((r) => r.branch_id);
    const choice = await services.llmRank({
      nodeId: node.id,
      emit: services.emit,
      prompt: `${expandContextKeys(node.attrs.prompt, context.toDict())}\n\nCandidates:\n${describeCandidates(ranked)}`,
      candidates,
      signal,
    });
    const chosen = ranked.find((r) => r.branch_id === choice);
    if (chosen) best = chosen;
  }
  const anySucceeded = ranked.some((r) => r.status === 'success' || r.status === 'partial_success');
  const joinFailed = context.get('parallel.outcome') === 'fail';
  const failure = joinFailed
    ? `the parallel node's join failed: ${context.getString('parallel.failure_reason', 'its branches failed')}`
    : anySucceeded
      ? undefined
      : 'every parallel branch failed';
  const selected = {
    'parallel.fan_in.best_id': best.branch_id,
    'parallel.fan_in.best_outcome': best.status,
  };
  const merged = failure ? undefined : await mergeIsolated(input, parsed.data, best.branch_id);
  if (merged && !merged.ok)
    return { ...merged.outcome, context_updates: { ...selected, ...merged.outcome.context_updates } };
  return {
    status: failure ? 'fail' : 'success',
    notes: `Selected best candidate: ${best.branch_id}`,
    ...(failure ? { failure_reason: failure } : {}),
    context_updates: { ...selected, ...merged?.updates },
  };
};

/** Isolated branches (`parallel.tree`) join the folder here, as the parallel node's `merge` says. */
function mergeIsolated(input: HandlerInput, results: ParallelResult[], bestId: string) {
  const tree = FanOutTreeSchema.nullable().safeParse(input.context.get(FAN_OUT_TREE_KEY) ?? null);
  if (!tree.success || !tree.data) return undefined;
  return mergeAtJoin(input.services, tree.data, results, bestId);
}
