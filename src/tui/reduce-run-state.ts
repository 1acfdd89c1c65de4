import { parseAcceleratorKey } from '../compiler/accelerator.js';
import type { PipelineGraph } from '../compiler/ir.js';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import { mapAgentEvent } from './agent-event-map.js';
import { applyAgentAction } from './apply-agent-action.js';
import { describeRoute } from './describe-route.js';
import { explainRoute } from './explain-route.js';
import { orderNodes } from './order-nodes.js';
import type { BranchView, NodeStatus, NodeView, RunState } from './run-state.js';

export function initialRunState(graph: PipelineGraph): RunState {
  const nodes: Record<string, NodeView> = {};
  for (const node of graph.nodes) {
    const label = node.attrs.label && node.attrs.label !== node.id ? node.attrs.label : node.id;
    nodes[node.id] = {
      id: node.id,
      label,
      kind: node.handler,
      ...(node.subgraph !== undefined ? { subgraph: node.subgraph } : {}),
      status: 'pending',
      attempt: 0,
      maxAttempts: 1 + (node.attrs.max_retries ?? graph.attrs.default_max_retries ?? 0),
      visits: 0,
      costUsd: 0,
      ...(node.attrs.llm_model ? { model: node.attrs.llm_model } : {}),
      activity: [],
    };
  }
  return {
    name: graph.name,
    goal: graph.attrs.goal ?? '',
    runId: '',
    phase: 'starting',
    order: orderNodes(graph),
    nodes,
    log: [],
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, costUsd: 0 },
    nextItemId: 1,
  };
}

const STATUS: Record<string, NodeStatus> = {
  success: 'success',
  partial_success: 'partial',
  fail: 'failed',
  retry: 'retrying',
  skipped: 'skipped',
};

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;
const time = (event: PipelineEvent): number => Date.parse(event.timestamp) || 0;

function patchNode(state: RunState, id: string | undefined, patch: (node: NodeView) => NodeView): RunState {
  const node = id === undefined ? undefined : state.nodes[id];
  if (!node || id === undefined) return state;
  const next = patch(node);
  return next === node ? state : { ...state, nodes: { ...state.nodes, [id]: next } };
}

/**
 * The TUI's whole model: a pure fold of PipelineEvents over the graph's initial state. A live run, a
 * replayed events.jsonl and the tests all go through this one function.
 */
export function reduceRunState(graph: PipelineGraph, state: RunState, event: PipelineEvent): RunState {
  const id = event.node_id;
  const { branch, parent } = event.data;
  // A manager loop's child pipeline is another graph: its nodes are not in this pane.
  if (parent !== undefined && (event.kind.startsWith('node.') || event.kind === 'edge.selected'))
    return state;
  const inBranch = branch !== undefined;
  switch (event.kind) {
    case 'pipeline.start':
    case 'pipeline.resume':
      return {
        ...state,
        name: text(event.data.name) ?? state.name,
        goal: text(event.data.goal) ?? state.goal,
        runId: text(event.data.run_id) ?? state.runId,
        phase: 'running',
        startedAt: state.startedAt ?? time(event),
      };
    case 'node.start': {
      let next = state;
      if (!inBranch && state.lastCompleted && id) {
        const from = state.lastCompleted;
        next = patchNode(next, from, (node) => {
          if (node.next !== undefined) return node;
          const route = explainRoute({
            edges: graph.edges.filter((edge) => edge.source === from),
            target: id,
            status: node.status === 'failed' ? 'fail' : node.status,
            ...(node.preferredLabel ? { preferredLabel: node.preferredLabel } : {}),
          });
          return { ...node, next: id, route };
        });
      }
      next = patchNode(next, id, (node) => {
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
      return inBranch
        ? next
        : {
            ...next,
            current: id,
            lastCompleted: undefined,
            phase: next.phase === 'starting' ? 'running' : next.phase,
          };
    }
    case 'node.retry':
      return patchNode(state, id, (node) => ({
        ...node,
        status: 'retrying',
        attempt: event.data.attempt || node.attempt,
        ...(text(event.data.reason) ? { failureReason: event.data.reason } : {}),
      }));
    case 'node.complete': {
      const d = event.data;
      const next = patchNode(state, id, (node) => ({
        ...node,
        status: STATUS[d.status] ?? 'success',
        durationMs:
          d.duration_ms !== undefined
            ? d.duration_ms
            : node.startedAt
              ? Math.max(0, time(event) - node.startedAt)
              : 0,
        ...(text(d.notes) ? { notes: d.notes } : {}),
        ...(text(d.failure_reason) ? { failureReason: d.failure_reason } : {}),
        ...(text(d.preferred_label) ? { preferredLabel: d.preferred_label } : {}),
        activity: node.activity.map((item) =>
          item.kind === 'text' && !item.done ? { ...item, done: true } : item,
        ),
      }));
      const done = id === undefined ? undefined : next.nodes[id];
      const logged =
        done && done !== state.nodes[id ?? '']
          ? {
              ...next,
              nextItemId: next.nextItemId + 1,
              log: [
                ...next.log,
                {
                  id: next.nextItemId,
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
                  ...(branch !== undefined ? { branch } : {}),
                },
              ],
            }
          : next;
      return inBranch ? logged : { ...logged, lastCompleted: id, current: undefined };
    }
    case 'edge.selected': {
      // The engine says which step chose the edge; explainRoute only serves logs recorded before.
      const from = text(event.data.from) ?? id;
      const to = text(event.data.to);
      const edges = graph.edges.filter((edge) => edge.source === from);
      return patchNode(state, from, (node) => ({
        ...node,
        ...(to ? { next: to } : {}),
        route: describeRoute(event.data, edges),
        routeDecided: true,
      }));
    }
    case 'node.jump':
    case 'goal_gate.retry': {
      const target = text(event.data.target);
      const reason =
        event.kind === 'goal_gate.retry'
          ? `goal gate ${id ?? ''} unsatisfied`
          : (text(event.data.reason) ?? 'jump');
      return {
        ...patchNode(state, id, (node) =>
          // `edge.selected` just said the same, in the engine's words.
          node.routeDecided && node.next === target
            ? node
            : { ...node, ...(target ? { next: target } : {}), route: reason },
        ),
        lastCompleted: undefined,
      };
    }
    case 'parallel.start': {
      const ids = event.data.branches;
      return patchNode(state, id, (node) => ({
        ...node,
        branches: ids.map((b): BranchView => ({ id: b, status: 'pending' })),
      }));
    }
    case 'parallel.branch.start':
    case 'parallel.branch.complete': {
      const status: NodeStatus =
        event.kind === 'parallel.branch.start'
          ? 'running'
          : event.data.cancelled
            ? 'skipped'
            : (STATUS[event.data.status] ?? 'success');
      return patchNode(state, id, (node) => ({
        ...node,
        branches: (node.branches ?? []).map((b) => (b.id === event.data.branch ? { ...b, status } : b)),
      }));
    }
    case 'interview.start': {
      const d = event.data;
      return {
        ...state,
        phase: state.phase === 'pausing' ? 'pausing' : 'waiting',
        gate: {
          nodeId: id ?? '',
          text: text(d.question) ?? 'Choose',
          type: d.type,
          options: d.options.map(({ key, label, target }) => ({
            key,
            label,
            ...(target !== undefined ? { target } : {}),
          })),
          askedAt: time(event),
          ...(d.timeout_ms !== undefined ? { timeoutMs: d.timeout_ms } : {}),
          ...(d.default_choice ? { defaultChoice: parseAcceleratorKey(d.default_choice).key } : {}),
        },
      };
    }
    case 'interview.complete':
    case 'interview.timeout': {
      const { gate: _g, ...rest } = state;
      return { ...rest, phase: state.phase === 'waiting' ? 'running' : state.phase };
    }
    case 'pipeline.paused':
    case 'pipeline.cancelled':
      return {
        ...state,
        phase: event.kind === 'pipeline.paused' ? 'paused' : 'cancelled',
        ...(text(event.data.resume_at) ? { resumeAt: event.data.resume_at } : {}),
      };
    case 'pipeline.error':
      return { ...state, failure: text(event.data.error) ?? 'failed' };
    case 'pipeline.finalize': {
      const { status, quality, reason } = event.data;
      const phase =
        status === 'completed'
          ? 'done'
          : status === 'failed'
            ? 'failed'
            : state.phase === 'pausing'
              ? 'paused'
              : state.phase;
      const { gate: _g, ...rest } = state;
      return {
        ...rest,
        phase: phase === 'running' || phase === 'waiting' ? 'paused' : phase,
        finishedAt: time(event),
        quality,
        ...(status === 'completed'
          ? text(reason)
            ? { endReason: reason }
            : {}
          : text(reason) && !state.failure
            ? { failure: reason }
            : {}),
      };
    }
    default: {
      const action = mapAgentEvent(event);
      if (!action) return state;
      const target = id ?? state.current;
      const withNode = patchNode(state, target, (node) => applyAgentAction(node, action, state.nextItemId));
      const counted = withNode === state ? state : { ...withNode, nextItemId: state.nextItemId + 1 };
      if (action.type !== 'usage') return counted;
      const usage = counted.usage;
      return {
        ...counted,
        usage: {
          inputTokens: usage.inputTokens + action.inputTokens,
          outputTokens: usage.outputTokens + action.outputTokens,
          cacheReadTokens: usage.cacheReadTokens + action.cacheReadTokens,
          costUsd: usage.costUsd + action.costUsd,
          ...(action.model ? { model: action.model } : usage.model ? { model: usage.model } : {}),
        },
      };
    }
  }
}
