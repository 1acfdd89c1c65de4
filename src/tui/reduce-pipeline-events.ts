import type { PipelineEventOf } from '../shared/pipeline-event.js';
import type { RunState } from './run-state.js';
import { type RunStateReducers, text, time } from './run-state-reducer.js';

function started(
  state: RunState,
  event: PipelineEventOf<'pipeline.start'> | PipelineEventOf<'pipeline.resume'>,
): RunState {
  const { finishedAt: _ended, ...rest } = state;
  // A resume after replayed executions starts the clock again; what they took is kept, not the pause.
  const earlier =
    state.startedAt === undefined
      ? undefined
      : Math.max(0, (state.finishedAt ?? state.lastEventAt ?? time(event)) - state.startedAt);
  return {
    ...rest,
    name: text(event.data.name) ?? state.name,
    goal: text(event.data.goal) ?? state.goal,
    runId: text(event.data.run_id) ?? state.runId,
    phase: 'running',
    startedAt: time(event),
    ...(earlier !== undefined ? { activeMs: (state.activeMs ?? 0) + earlier } : {}),
  };
}

function stopped(
  state: RunState,
  event: PipelineEventOf<'pipeline.paused'> | PipelineEventOf<'pipeline.cancelled'>,
): RunState {
  return {
    ...state,
    phase: event.kind === 'pipeline.paused' ? 'paused' : 'cancelled',
    ...(text(event.data.resume_at) ? { resumeAt: event.data.resume_at } : {}),
  };
}

function finalized(state: RunState, event: PipelineEventOf<'pipeline.finalize'>): RunState {
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

/** The run's own life: started or resumed, paused or cancelled, failed, finished. */
export const pipelineReducers: RunStateReducers = {
  'pipeline.start': started,
  'pipeline.resume': started,
  'pipeline.paused': stopped,
  'pipeline.cancelled': stopped,
  'pipeline.error': (state, event) => ({ ...state, failure: text(event.data.error) ?? 'failed' }),
  'pipeline.finalize': finalized,
};
