import type { PipelineGraph } from '../compiler/ir.js';
import { definedFields } from '../shared/defined-fields.js';
import type { PipelineEventOf } from '../shared/pipeline-event.js';
import { describeRoute } from './describe-route.js';
import { explainRoute } from './explain-route.js';
import type { RunState } from './run-state.js';
import { NODE_STATUS, patchNode, type RunStateReducers, text, time } from './run-state-reducer.js';

/** For a log recorded before `edge.selected`: infers the route into `to` from the node that last completed. */
function inferRoute(state: RunState, to: string, graph: PipelineGraph): RunState {
  const from = state.lastCompleted;
  if (from === undefined) return state;
  return patchNode(state, from, (node) => {
    if (node.next !== undefined) return node;
    const route = explainRoute({
      edges: graph.edges.filter((edge) => edge.source === from),
      target: to,
      status: node.status === 'failed' ? 'fail' : node.status,
      ...(node.preferredLabel ? { preferredLabel: node.preferredLabel } : {}),
    });
    return { ...node, next: to, route };
  });
}

function nodeStarted(state: RunState, event: PipelineEventOf<'node.start'>, graph: PipelineGraph): RunState {
  const id = event.node_id;
  const inBranch = event.data.branch !== undefined;
  const routed = !inBranch && id ? inferRoute(state, id, graph) : state;
  const next = patchNode(routed, id, (node) => {
    const branchOf = inBranch ? (state.current ?? node.branchOf) : undefined;
    const { next: _n, route: _r, routeDecided: _rd, durationMs: _d, ...rest } = node;
    return {
      ...rest,
      status: 'running',
      attempt: event.data.attempt || 1,
      visits: node.visits + 1,
      startedAt: time(event),
      ...(branchOf ? { branchOf } : {}),
    };
  });
  if (inBranch) return next;
  return {
    ...next,
    current: id,
    lastCompleted: undefined,
    phase: next.phase === 'starting' ? 'running' : next.phase,
  };
}

/** Adds a just-completed node to the run's log (a node not in this graph adds nothing). */
function logCompletion(before: RunState, after: RunState, event: PipelineEventOf<'node.complete'>): RunState {
  const id = event.node_id;
  const done = id === undefined ? undefined : after.nodes[id];
  if (!done || done === before.nodes[id ?? '']) return after;
  const branch = event.data.branch;
  return {
    ...after,
    nextItemId: after.nextItemId + 1,
    log: [
      ...after.log,
      {
        id: after.nextItemId,
        nodeId: done.id,
        label: done.label,
        status: done.status,
        durationMs: done.durationMs ?? 0,
        costUsd: done.costUsd,
        ...(done.failureReason && done.status === 'failed'
          ? { detail: done.failureReason }
          : done.notes
            ? { detail: done.notes }
            : {}),
        ...definedFields({ branch }),
      },
    ],
  };
}

function nodeCompleted(state: RunState, event: PipelineEventOf<'node.complete'>): RunState {
  const d = event.data;
  const next = patchNode(state, event.node_id, (node) => ({
    ...node,
    status: NODE_STATUS[d.status] ?? 'success',
    durationMs:
      d.duration_ms !== undefined
        ? d.duration_ms
        : node.startedAt
          ? Math.max(0, time(event) - node.startedAt)
          : 0,
    ...(text(d.notes) ? { notes: d.notes } : {}),
    ...(text(d.failure_reason) ? { failureReason: d.failure_reason } : {}),
    ...(text(d.preferred_label) ? { preferredLabel: d.preferred_label } : {}),
    ...(text(d.commit) ? { commit: d.commit } : {}),
    activity: node.activity.map((item) =>
      item.kind === 'text' && !item.done ? { ...item, done: true } : item,
    ),
  }));
  const logged = logCompletion(state, next, event);
  return d.branch !== undefined ? logged : { ...logged, lastCompleted: event.node_id, current: undefined };
}

function edgeSelected(
  state: RunState,
  event: PipelineEventOf<'edge.selected'>,
  graph: PipelineGraph,
): RunState {
  // The engine says which step chose the edge; explainRoute only serves logs recorded before.
  const from = text(event.data.from) ?? event.node_id;
  const to = text(event.data.to);
  const edges = graph.edges.filter((edge) => edge.source === from);
  return patchNode(state, from, (node) => ({
    ...node,
    ...(to ? { next: to } : {}),
    route: describeRoute(event.data, edges),
    routeDecided: true,
  }));
}

function jumped(
  state: RunState,
  event: PipelineEventOf<'node.jump'> | PipelineEventOf<'goal_gate.retry'>,
): RunState {
  const target = text(event.data.target);
  const reason =
    event.kind === 'goal_gate.retry'
      ? `goal gate ${event.node_id ?? ''} unsatisfied`
      : (text(event.data.reason) ?? 'jump');
  return {
    ...patchNode(state, event.node_id, (node) =>
      // `edge.selected` just said the same, in the engine's words.
      node.routeDecided && node.next === target
        ? node
        : { ...node, ...(target ? { next: target } : {}), route: reason },
    ),
    lastCompleted: undefined,
  };
}

/** A node's visits, retries and outcomes, and the route taken out of it. */
export const nodeReducers: RunStateReducers = {
  'node.start': nodeStarted,
  'node.retry': (state, event) =>
    patchNode(state, event.node_id, (node) => ({
      ...node,
      status: 'retrying',
      attempt: event.data.attempt || node.attempt,
      ...(text(event.data.reason) ? { failureReason: event.data.reason } : {}),
    })),
  'node.complete': nodeCompleted,
  'edge.selected': edgeSelected,
  'node.jump': jumped,
  'goal_gate.retry': jumped,
};
