import type { EventData, EventKind } from '../shared/pipeline-event.js';
import type { PipelineMachineContext } from './machine-context.js';

export type RunStatus = 'running' | 'completed' | 'failed' | 'paused' | 'cancelled';

/** What the pure machine emits; the engine turns these into side effects (event log, checkpoint). */
export type MachineEmitted =
  | MachineEvent
  | { type: 'checkpoint'; context: PipelineMachineContext; currentNode: string; status: RunStatus };

/** A pipeline event as the machine emits it: the engine adds the timestamp, durations and usage. */
export type MachineEvent = {
  [K in EventKind]: { type: 'pipeline.event'; kind: K; nodeId?: string; data: EventData<K> };
}[EventKind];

/** The output of a finished pipeline actor. */
export interface PipelineMachineOutput {
  status: Exclude<RunStatus, 'running'>;
  context: PipelineMachineContext;
}
