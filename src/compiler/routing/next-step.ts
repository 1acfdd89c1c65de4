import { definedFields } from '../../shared/defined-fields.js';
import { outgoingEdges } from '../graph-edges.js';
import type { PipelineEdge, PipelineGraph, PipelineNode } from '../ir.js';
import type { ReadonlyOutcome } from '../outcome.js';
import { routeFailure } from './route-failure.js';
import { type EdgeSelectionStep, selectEdgeStep } from './select-edge.js';

export interface NextStepInput {
  graph: PipelineGraph;
  /** The node that just ran. */
  node: PipelineNode;
  outcome: ReadonlyOutcome;
  context: Record<string, unknown>;
  /** The router model's pick among `routerCandidates(...)`, when the engine asked it. */
  llmChoice?: string;
  /** `node`'s outgoing edges when the caller has them indexed (else found in `graph.edges`, O(graph)). */
  edges?: readonly PipelineEdge[];
}

/** Which routing step chose an edge: edge selection's steps, or the outcome's `next_node`. */
export type RoutingStep = EdgeSelectionStep | 'next_node';

export type NextStep =
  /** Follow this edge (its fidelity, thread_id and loop_restart apply); `step` says what chose it. */
  | { kind: 'edge'; edge: PipelineEdge; step: RoutingStep }
  /** Jump to a node without an edge: the failed node's retry_target or fallback_retry_target. */
  | { kind: 'retry_target'; target: string; via: 'retry_target' | 'fallback_retry_target' }
  /** Jump to a node without an edge because the outcome named it in `next_node`. */
  | { kind: 'jump'; target: string }
  /** No eligible edge and the outcome is not FAIL: the run ends successfully at this node. */
  | { kind: 'end' }
  | { kind: 'fail'; reason: string };

/**
 * What the engine does after a node's outcome (docs/semantics.md S2, S3):
 * - `outcome.next_node` naming a real node overrides routing: its outgoing edge to that node when one
 *   exists (so edge attributes apply), else a `jump`;
 * - FAIL goes through failure routing (`routeFailure`);
 * - anything else goes through edge selection (`selectEdge`), and with no eligible edge the run ends
 *   successfully at this node.
 *
 * @example
 * const step = nextStep({ graph, node, outcome: { status: 'success' }, context });
 * if (step.kind === 'edge') goTo(step.edge.target);
 */
export function nextStep(input: NextStepInput): NextStep {
  const { graph, node, outcome, context } = input;
  const edges = input.edges ? [...input.edges] : outgoingEdges(graph, node.id);
  const override = outcome.next_node?.trim();
  if (override && graph.nodes.some((candidate) => candidate.id === override)) {
    const edge = edges.find((candidate) => candidate.target === override);
    return edge ? { kind: 'edge', edge, step: 'next_node' } : { kind: 'jump', target: override };
  }
  if (outcome.status === 'fail') {
    const route = routeFailure({ node, edges, outcome, context, graph });
    // A failure edge is always chosen by its condition (unconditional edges never catch a FAIL).
    return route.kind === 'edge' ? { ...route, step: 'condition' } : route;
  }
  const selected = selectEdgeStep({
    edges,
    outcome,
    context,
    ...definedFields({ llmChoice: input.llmChoice }),
  });
  return selected ? { kind: 'edge', edge: selected.edge, step: selected.step } : { kind: 'end' };
}
