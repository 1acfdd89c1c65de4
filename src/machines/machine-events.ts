import type { PipelineMachineContext } from './machine-context.js';

export type RunStatus = 'running' | 'completed' | 'failed' | 'paused' | 'cancelled';

/** What the pure machine emits; the engine turns these into side effects (event log, checkpoint). */
export type MachineEmitted =
  | { type: 'pipeline.event'; kind: string; nodeId?: string; data: Record<string, unknown> }
  | { type: 'checkpoint'; context: PipelineMachineContext; currentNode: string; status: RunStatus };

/** The output of a finished pipeline actor. */
export interface PipelineMachineOutput {
  status: Exclude<RunStatus, 'running'>;
  context: PipelineMachineContext;
}
