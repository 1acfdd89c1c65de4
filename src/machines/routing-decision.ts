import { checkGoalGates, routeFailure, selectEdge } from '../compiler/routing.js';
import type { PipelineMachineContext } from './pipeline-context.js';
import type { GraphLookup } from './pipeline-runtime.js';

export type RoutingDecision =
  | { kind: 'retry' }
  | { kind: 'edge'; edge: number }
  | { kind: 'jump'; target: string; reason: string }
  | { kind: 'end' }
  | { kind: 'fail'; reason: string };

const memo = new WeakMap<PipelineMachineContext, RoutingDecision>();

/**
 * The one routing question every guard of a node's `route` state asks. Pure in (graph, context);
 * memoised per context object because XState evaluates several guards against the same snapshot.
 */
export function decideRoute(
  lookup: GraphLookup,
  context: PipelineMachineContext,
  nodeId: string,
): RoutingDecision {
  const cached = memo.get(context);
  if (cached) return cached;
  const decision = computeDecision(lookup, context, nodeId);
  memo.set(context, decision);
  return decision;
}

function computeDecision(
  lookup: GraphLookup,
  context: PipelineMachineContext,
  nodeId: string,
): RoutingDecision {
  if (context.retryPending) return { kind: 'retry' };
  const outcome = context.lastOutcome ?? { status: 'success' as const };
  const node = lookup.node(nodeId);
  const edges = [...lookup.outgoing(nodeId)];
  // Same order as compiler/routing nextStep(), over the indexed graph so a step costs O(out-degree).
  const override = outcome.next_node?.trim();
  if (override && lookup.has(override)) {
    const edge = edges.find((candidate) => candidate.target === override);
    return edge
      ? { kind: 'edge', edge: edge.index }
      : { kind: 'jump', target: override, reason: `next_node from ${nodeId}` };
  }
  if (outcome.status === 'fail') {
    const route = routeFailure({ node, edges, outcome, context: context.values, graph: lookup.graph });
    if (route.kind === 'edge') return { kind: 'edge', edge: route.edge.index };
    if (route.kind === 'retry_target')
      return { kind: 'jump', target: route.target, reason: `retry target of ${nodeId}` };
    return route;
  }
  const edge = selectEdge({
    edges,
    outcome,
    context: context.values,
    ...(context.llmChoice ? { llmChoice: context.llmChoice } : {}),
  });
  return edge ? { kind: 'edge', edge: edge.index } : { kind: 'end' };
}

export type GoalGateDecision =
  | { kind: 'ok' }
  | { kind: 'jump'; gate: string; target: string }
  | { kind: 'fail'; gate: string; reason?: string };

const gateMemo = new WeakMap<PipelineMachineContext, GoalGateDecision>();

export function decideGoalGates(lookup: GraphLookup, context: PipelineMachineContext): GoalGateDecision {
  const cached = gateMemo.get(context);
  if (cached) return cached;
  const result = checkGoalGates({
    graph: lookup.graph,
    nodeOutcomes: context.nodeOutcomes,
    context: context.values,
  });
  const decision: GoalGateDecision = result.ok
    ? { kind: 'ok' }
    : result.target
      ? { kind: 'jump', gate: result.gate, target: result.target }
      : { kind: 'fail', gate: result.gate, ...(result.reason ? { reason: result.reason } : {}) };
  gateMemo.set(context, decision);
  return decision;
}
