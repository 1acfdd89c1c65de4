import type { PipelineGraph } from '../compiler/ir.js';
import { definedFields } from '../shared/defined-fields.js';
import type { EventKind, PipelineEvent, PipelineEventOf } from '../shared/pipeline-event.js';
import { orderNodes } from './order-nodes.js';
import { reduceAgentEvent } from './reduce-agent-event.js';
import { gateReducers } from './reduce-gate-events.js';
import { nodeReducers } from './reduce-node-events.js';
import { parallelReducers } from './reduce-parallel-events.js';
import { pipelineReducers } from './reduce-pipeline-events.js';
import type { NodeView, RunState } from './run-state.js';
import { type RunStateReducer, type RunStateReducers, time } from './run-state-reducer.js';

export function initialRunState(graph: PipelineGraph): RunState {
  const nodes: Record<string, NodeView> = {};
  for (const node of graph.nodes) {
    const label = node.attrs.label && node.attrs.label !== node.id ? node.attrs.label : node.id;
    nodes[node.id] = {
      id: node.id,
      label,
      kind: node.handler,
      ...definedFields({ subgraph: node.subgraph }),
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

const REDUCERS: RunStateReducers = {
  ...pipelineReducers,
  ...nodeReducers,
  ...parallelReducers,
  ...gateReducers,
};

function reducerOf<K extends EventKind>(event: PipelineEventOf<K>): RunStateReducer<K> | undefined {
  return REDUCERS[event.kind];
}

/**
 * The TUI's whole model: a pure fold of PipelineEvents over the graph's initial state. A live run, a
 * replayed events.jsonl and the tests all go through this one function.
 */
export function reduceRunState(graph: PipelineGraph, state: RunState, event: PipelineEvent): RunState {
  // A manager loop's child pipeline is another graph: its nodes are not in this pane.
  if (event.data.parent !== undefined && (event.kind.startsWith('node.') || event.kind === 'edge.selected'))
    return state;
  const reducer = reducerOf(event);
  const next = reducer ? reducer(state, event, graph) : reduceAgentEvent(state, event);
  return next === state ? state : { ...next, lastEventAt: time(event) };
}
