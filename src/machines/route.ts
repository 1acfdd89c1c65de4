import { checkGoalGates, nextStep, type RoutingStep } from '../compiler/routing.js';
import type { GraphLookup } from './graph-lookup.js';
import type { PipelineMachineContext } from './machine-context.js';
import { visitValuesView } from './visit-counts.js';

/**
 * Where the pipeline goes after a node, decided once its outcome is recorded. Kept in the context
 * (`context.route`), so the routing state's guards read a decision anyone can see in a snapshot, and
 * the actions that take it (edge events, checkpoints) report the same decision.
 */
export type Route =
  /** A RETRY with attempts left: wait the backoff, then run the node again. */
  | { kind: 'retry' }
  /** Follow the edge with this index; `step` says which rule chose it. */
  | { kind: 'edge'; edge: number; step: RoutingStep }
  /** A failed node's retry_target or fallback_retry_target. */
  | { kind: 'retry_target'; target: string; via: 'retry_target' | 'fallback_retry_target' }
  /** The outcome's `next_node`, naming a node without an edge from here. */
  | { kind: 'jump'; target: string }
  /** The run ends successfully here (an exit, or no eligible edge after an outcome that did not fail). */
  | { kind: 'end' }
  /** The run would end here, but a visited goal gate did not succeed: go back to its retry target. */
  | { kind: 'goal_gate_retry'; gate: string; target: string }
  /** The run would end here, but a visited goal gate did not succeed and nothing can retry it. */
  | { kind: 'goal_gate_failed'; failure: { node: string; reason: string } }
  /** The run fails here. */
  | { kind: 'fail'; failure: { node: string; reason: string } };

/**
 * The route after `nodeId`, from the context as recording its outcome left it. The compiler's routing
 * functions decide; this only maps their answer to what the machine's transitions test.
 */
export function decideRoute(lookup: GraphLookup, context: PipelineMachineContext, nodeId: string): Route {
  if (context.retryPending) return { kind: 'retry' };
  const values = visitValuesView(context.values, context.visits);
  const node = lookup.node(nodeId);
  if (node.handler === 'exit') return goalGateRoute(lookup, context, values);
  const step = nextStep({
    graph: lookup.graph,
    node,
    outcome: context.lastOutcome ?? { status: 'success' },
    context: values,
    edges: lookup.outgoing(nodeId),
    ...(context.llmChoice ? { llmChoice: context.llmChoice } : {}),
  });
  switch (step.kind) {
    case 'edge':
      return { kind: 'edge', edge: step.edge.index, step: step.step };
    case 'fail':
      return { kind: 'fail', failure: { node: nodeId, reason: step.reason } };
    // A dead end ends the run like an exit: the goal gates are checked on that way out too.
    case 'end':
      return goalGateRoute(lookup, context, values);
    default:
      return step;
  }
}

/** Where the run ends: every visited goal gate must have succeeded, else go back to its retry target or fail. */
function goalGateRoute(
  lookup: GraphLookup,
  context: PipelineMachineContext,
  values: Readonly<Record<string, unknown>>,
): Route {
  const gates = checkGoalGates({ graph: lookup.graph, nodeOutcomes: context.nodeOutcomes, context: values });
  if (gates.ok) return { kind: 'end' };
  if (gates.target) return { kind: 'goal_gate_retry', gate: gates.gate, target: gates.target };
  const reason = gates.reason ?? `goal gate ${gates.gate} did not succeed and no retry target is set`;
  // The run stops where it checked the gates; the failure names the gate.
  return { kind: 'goal_gate_failed', failure: { node: gates.gate, reason } };
}
