import type { PipelineGraph } from '../compiler/ir.js';
import type { EventKind, PipelineEvent, PipelineEventOf } from '../shared/pipeline-event.js';
import type { NodeStatus, NodeView, RunState } from './run-state.js';

/** How one kind of event changes the TUI's model: a pure function, like the whole fold. */
export type RunStateReducer<K extends EventKind> = (
  state: RunState,
  event: PipelineEventOf<K>,
  graph: PipelineGraph,
) => RunState;

/** The reducers by event kind; a kind without one falls through to the agent's events. */
export type RunStateReducers = { [K in EventKind]?: RunStateReducer<K> };

/** A node outcome as the TUI words it. */
export const NODE_STATUS: Record<string, NodeStatus> = {
  success: 'success',
  partial_success: 'partial',
  fail: 'failed',
  retry: 'retrying',
  skipped: 'skipped',
};

/** A non-empty string, or undefined: events carry '' and absent fields alike. */
export const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** The event's time in epoch ms (0 when unparseable). */
export const time = (event: PipelineEvent): number => Date.parse(event.timestamp) || 0;

/** Replaces one node's view; the same state when the node is unknown or unchanged. */
export function patchNode(
  state: RunState,
  id: string | undefined,
  patch: (node: NodeView) => NodeView,
): RunState {
  const node = id === undefined ? undefined : state.nodes[id];
  if (!node || id === undefined) return state;
  const next = patch(node);
  return next === node ? state : { ...state, nodes: { ...state.nodes, [id]: next } };
}
