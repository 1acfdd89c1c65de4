import type { PipelineGraph, PipelineNode } from '../ir.js';
import { isSuccessStatus, type StageStatus } from '../outcome.js';
import { maxVisitsFor, visitCount } from './visit-limit.js';

export interface GoalGateInput {
  graph: PipelineGraph;
  /** Last outcome status of every visited node. */
  nodeOutcomes: Record<string, StageStatus>;
  /** The run's context: a gate that has used up its `max_visits` can never succeed, so the run fails. */
  context?: Readonly<Record<string, unknown>>;
}

export type GoalGateResult = { ok: true } | { ok: false; gate: string; target?: string; reason?: string };

/**
 * Checks the goal gates when the run reaches an exit (docs/semantics.md): every visited `goal_gate=true`
 * node must have ended SUCCESS or PARTIAL_SUCCESS. For the first unsatisfied gate (graph order) the
 * target is the gate's `retry_target`, its `fallback_retry_target`, the graph's `retry_target`, then the
 * graph's `fallback_retry_target` — the first that names an existing node. No target: the run fails.
 *
 * @example
 * checkGoalGates({ graph, nodeOutcomes: { implement: 'fail' } }); // { ok: false, gate: 'implement', target: 'plan' }
 */
export function checkGoalGates(input: GoalGateInput): GoalGateResult {
  const { graph, nodeOutcomes } = input;
  const ids = new Set(graph.nodes.map((node) => node.id));
  for (const node of graph.nodes) {
    if (node.attrs.goal_gate !== true) continue;
    const status = Object.hasOwn(nodeOutcomes, node.id) ? nodeOutcomes[node.id] : undefined;
    if (status === undefined || isSuccessStatus(status)) continue;
    const max = input.context ? maxVisitsFor(node, graph) : undefined;
    if (max && input.context && visitCount(input.context, node.id) >= max.limit) {
      return {
        ok: false,
        gate: node.id,
        reason: `goal gate ${node.id} did not succeed and has used all its visits (${max.attribute}=${max.limit})`,
      };
    }
    const target = goalGateRetryTarget(graph, node, (id) => ids.has(id));
    return target ? { ok: false, gate: node.id, target } : { ok: false, gate: node.id };
  }
  return { ok: true };
}

/**
 * Where an unsatisfied goal gate sends the run: the gate's `retry_target`, its `fallback_retry_target`,
 * the graph's `retry_target`, then the graph's `fallback_retry_target` — the first naming a node. Known
 * from the graph alone, so the lowering draws these jumps as direct transitions.
 */
export function goalGateRetryTarget(
  graph: PipelineGraph,
  gate: PipelineNode,
  known: (id: string) => boolean,
): string | undefined {
  const chain = [
    gate.attrs.retry_target,
    gate.attrs.fallback_retry_target,
    graph.attrs.retry_target,
    graph.attrs.fallback_retry_target,
  ];
  // A target naming no node is a lint warning (retry_target_exists); at run time we skip it.
  return chain.map((value) => value?.trim()).find((value): value is string => !!value && known(value));
}
