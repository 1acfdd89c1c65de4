import { parseAcceleratorKey } from '../compiler/accelerator.js';
import { definedFields } from '../shared/defined-fields.js';
import type { PipelineEventOf } from '../shared/pipeline-event.js';
import type { RunState } from './run-state.js';
import { type RunStateReducers, text, time } from './run-state-reducer.js';

function asked(state: RunState, event: PipelineEventOf<'interview.start'>): RunState {
  const d = event.data;
  return {
    ...state,
    phase: state.phase === 'pausing' ? 'pausing' : 'waiting',
    gate: {
      nodeId: event.node_id ?? '',
      text: text(d.question) ?? 'Choose',
      type: d.type,
      options: d.options.map(({ key, label, target }) => ({
        key,
        label,
        ...definedFields({ target }),
      })),
      askedAt: time(event),
      ...definedFields({ timeoutMs: d.timeout_ms }),
      ...(d.default_choice ? { defaultChoice: parseAcceleratorKey(d.default_choice).key } : {}),
    },
  };
}

function answered(state: RunState): RunState {
  const { gate: _g, ...rest } = state;
  return { ...rest, phase: state.phase === 'waiting' ? 'running' : state.phase };
}

/** A human gate: the question shown, then gone once answered or timed out. */
export const gateReducers: RunStateReducers = {
  'interview.start': asked,
  'interview.complete': answered,
  'interview.timeout': answered,
};
