import type { PipelineEvent } from '../shared/pipeline-event.js';
import { mapAgentEvent } from './agent-event-map.js';
import { applyAgentAction } from './apply-agent-action.js';
import type { RunState } from './run-state.js';
import { patchNode } from './run-state-reducer.js';

/**
 * Any other event may be the coding agent's (text, tool calls, usage): it lands in the node's
 * activity, and usage also in the run's totals.
 */
export function reduceAgentEvent(state: RunState, event: PipelineEvent): RunState {
  const action = mapAgentEvent(event);
  if (!action) return state;
  const target = event.node_id ?? state.current;
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
