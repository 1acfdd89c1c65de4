import type { InspectionEvent } from 'xstate';
import { evaluateCondition } from '../compiler/conditions/index.js';
import type { PipelineGraph } from '../compiler/ir.js';
import { conditionScope, isConditional } from '../compiler/routing/select-edge.js';
import type { PipelineMachineContext } from '../machines/machine-context.js';
import { visitValuesView } from '../machines/visit-counts.js';
import type { PipelineEvent } from '../shared/pipeline-event.js';

/** Which values an edge's condition took, over the times its node routed. */
export interface ConditionOutcomes {
  held: boolean;
  failed: boolean;
}

/** What one case's run did, as a test and coverage read it. */
export interface RunObservation {
  /** Nodes the run entered, in order (its own `node.start` events: no parallel branch, no child pipeline). */
  route: string[];
  /** Every node entered, parallel branches included. */
  entered: Set<string>;
  /** Declaration indexes of the edges taken. */
  edgesTaken: Set<number>;
  /** By edge index: what its condition evaluated to whenever its node routed. */
  conditions: Map<number, ConditionOutcomes>;
}

/** A pipeline actor's snapshot (the root's, a branch's or a child pipeline's): its state and context. */
function isPipelineSnapshot(
  snapshot: unknown,
): snapshot is { value: Record<string, unknown>; context: PipelineMachineContext } {
  if (typeof snapshot !== 'object' || snapshot === null) return false;
  if (!('value' in snapshot) || !('context' in snapshot)) return false;
  const { value, context } = snapshot;
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof context === 'object' &&
    context !== null &&
    'values' in context &&
    'visits' in context &&
    'tags' in context
  );
}

/** The node whose `route` state a snapshot is in (XState's microsteps show it; snapshots do not). */
function routeSnapshot(snapshot: unknown): { node: string; context: PipelineMachineContext } | undefined {
  if (!isPipelineSnapshot(snapshot)) return undefined;
  const entries = Object.entries(snapshot.value);
  const [node, state] = entries[0] ?? [];
  return entries.length === 1 && state === 'route' && node !== undefined
    ? { node, context: snapshot.context }
    : undefined;
}

/**
 * Collects a run's observation from its events and, when `conditions` is asked for, from the actor
 * system's microsteps: at each node's route state the outcome and context the routing saw, against
 * which every conditional edge of the node is evaluated (so a condition that held but lost on weight
 * counts as held). A child pipeline's nodes are another graph's: only nodes of `graph` are counted.
 */
export function observeRun(graph: PipelineGraph, options: { conditions: boolean }) {
  const observation: RunObservation = {
    route: [],
    entered: new Set(),
    edgesTaken: new Set(),
    conditions: new Map(),
  };
  const onEvent = (event: PipelineEvent): void => {
    if (event.kind === 'node.start' && event.node_id !== undefined && !event.data['parent']) {
      observation.entered.add(event.node_id);
      if (!event.data['branch']) observation.route.push(event.node_id);
    } else if (
      event.kind === 'edge.selected' &&
      !event.data['parent'] &&
      event.data.edge_index !== undefined
    ) {
      observation.edgesTaken.add(event.data.edge_index);
    } else if (event.kind === 'parallel.branch.start' && !event.data['parent'] && event.node_id) {
      // A fan-out takes its edges by starting branches: a branch's index is its edge's place among them.
      const edge = graph.edges.filter((e) => e.source === event.node_id)[event.data.index];
      if (edge) observation.edgesTaken.add(edge.index);
    }
  };
  const nodeIds = new Set(graph.nodes.map((node) => node.id));
  const inspect = (event: InspectionEvent): void => {
    if (event.type !== '@xstate.microstep') return;
    const routed = routeSnapshot(event.snapshot);
    // A manager's child pipeline is another graph, even where its node ids match this one's.
    if (!routed || !nodeIds.has(routed.node) || routed.context.tags['parent'] !== undefined) return;
    const { context } = routed;
    const scope = conditionScope(
      context.lastOutcome ?? { status: 'success' },
      visitValuesView(context.values, context.visits),
    );
    for (const edge of graph.edges) {
      if (edge.source !== routed.node || !isConditional(edge)) continue;
      const seen = observation.conditions.get(edge.index) ?? { held: false, failed: false };
      if (evaluateCondition(edge.attrs.condition ?? '', scope)) seen.held = true;
      else seen.failed = true;
      observation.conditions.set(edge.index, seen);
    }
  };
  return { observation, onEvent, ...(options.conditions ? { inspect } : {}) };
}
