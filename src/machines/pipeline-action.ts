import { enqueueActions } from 'xstate';
import type { EventData, EventKind } from '../shared/pipeline-event.js';
import type { PipelineMachineContext } from './machine-context.js';
import type { MachineEmitted, MachineEvent, RunStatus } from './machine-events.js';
import type { PipelineMachineEvent } from './pipeline-machine-event.js';

/** What a pipeline action may do: change the context and emit (events for the log, checkpoints). */
export interface Enqueue {
  assign: (values: Partial<PipelineMachineContext>) => void;
  emit: (event: MachineEmitted) => void;
}

export interface ActionArgs {
  context: PipelineMachineContext;
  event: PipelineMachineEvent;
  enqueue: Enqueue;
}

/**
 * A pipeline machine action written as a plain function. The `never`s say it spawns no actor, raises
 * no action and checks no guard, which lets it be defined outside `setup()` and still fit there.
 */
export function pipelineAction<P extends object | undefined>(run: (args: ActionArgs, params: P) => void) {
  return enqueueActions<
    PipelineMachineContext,
    PipelineMachineEvent,
    P,
    PipelineMachineEvent,
    never,
    never,
    never,
    never,
    MachineEmitted
  >(({ context, event, enqueue }, params) => run({ context, event, enqueue }, params));
}

/** A pipeline event, as the machine emits it. */
export const evt = <K extends EventKind>(kind: K, data: EventData<K>, nodeId?: string): MachineEmitted =>
  // The kind and its data are checked against each other by the signature; TypeScript cannot follow
  // a generic `K` into the union.
  ({ type: 'pipeline.event', kind, data, ...(nodeId ? { nodeId } : {}) }) as MachineEvent;

/** Asks the engine to save the run: the context as it stands after this step, and where it resumes. */
export const checkpoint = (
  context: PipelineMachineContext,
  currentNode: string,
  status: RunStatus = 'running',
): MachineEmitted => ({ type: 'checkpoint', context, currentNode, status });
