import { conditionTestsOutcome, parseCondition } from '../conditions/index.js';
import type { PipelineEdge, PipelineGraph, PipelineNode } from '../ir.js';
import type { ReadonlyOutcome } from '../outcome.js';
import { isConditional, matchingConditionalEdges } from './select-edge.js';
import { visitLimitFailure } from './visit-limit.js';

export interface FailureRoutingInput {
  node: PipelineNode;
  /** When given, a FAIL from going over the node's visit limit skips its `retry_target` (another visit). */
  graph?: PipelineGraph;
  /** Outgoing edges of `node`. */
  edges: PipelineEdge[];
  outcome: ReadonlyOutcome;
  context: Record<string, unknown>;
}

export type FailureRoute =
  | { kind: 'edge'; edge: PipelineEdge }
  /** `via`: which attribute named the target. */
  | { kind: 'retry_target'; target: string; via: 'retry_target' | 'fallback_retry_target' }
  | { kind: 'fail'; reason: string };

/** The failure reason the run reports when a FAIL is not routed anywhere. */
export function failureReason(node: PipelineNode, outcome: ReadonlyOutcome): string {
  const reason = outcome.failure_reason?.trim();
  return reason ? reason : `node "${node.id}" failed`;
}

/**
 * Where a FAIL goes (docs/semantics.md): the best true conditional edge that tests `outcome` (so
 * `outcome=fail`, `outcome!=success` and `outcome in [fail, retry]` all catch it, while an edge about
 * some context key does not); else the node's `retry_target`; else its `fallback_retry_target`; else the
 * run fails with the node's failure reason. Unconditional edges never swallow a FAIL.
 *
 * @example
 * routeFailure({ node, edges, outcome: { status: 'fail', failure_reason: 'tests red' }, context: {} });
 * // { kind: 'fail', reason: 'tests red' } when nothing catches it
 */
export function routeFailure(input: FailureRoutingInput): FailureRoute {
  const { node, edges, outcome, context } = input;
  // Over its visit limit, the node must not be entered again straight away: its own retry_target and
  // any route back to itself are skipped, so a fail edge or fallback_retry_target elsewhere takes over.
  const overLimit = input.graph !== undefined && visitLimitFailure(node, input.graph, context) !== undefined;
  const elsewhere = (target: string | undefined): boolean => !overLimit || target !== node.id;
  const failureEdges = edges.filter(
    (edge) =>
      elsewhere(edge.target) &&
      isConditional(edge) &&
      conditionTestsOutcome(parseCondition(edge.attrs.condition as string)),
  );
  const edge = matchingConditionalEdges(failureEdges, { ...outcome, status: 'fail' }, context)[0];
  if (edge) return { kind: 'edge', edge };
  const retryTarget = overLimit ? undefined : node.attrs.retry_target?.trim();
  if (retryTarget) return { kind: 'retry_target', target: retryTarget, via: 'retry_target' };
  const fallback = node.attrs.fallback_retry_target?.trim();
  if (fallback && elsewhere(fallback))
    return { kind: 'retry_target', target: fallback, via: 'fallback_retry_target' };
  return { kind: 'fail', reason: failureReason(node, outcome) };
}
