import type { Actor } from 'xstate';
import { CONTROL_STATES } from '../compiler/lower/state-keys.js';
import type { PipelineMachineContext } from './machine-context.js';
import type { RunStatus } from './machine-events.js';
import type { PipelineMachine } from './pipeline-machine.js';

export type FinalStatus = Exclude<RunStatus, 'running'> | 'branch_done';

const FINAL: Record<string, FinalStatus> = {
  [CONTROL_STATES.completed]: 'completed',
  [CONTROL_STATES.failed]: 'failed',
  [CONTROL_STATES.paused]: 'paused',
  [CONTROL_STATES.cancelled]: 'cancelled',
  [CONTROL_STATES.branchDone]: 'branch_done',
};

/** The final status a pipeline actor's state value stands for (an unknown one counts as failed). */
export const finalStatusOf = (value: unknown): FinalStatus => FINAL[String(value)] ?? 'failed';

/** Resolves when a pipeline actor reaches a final state; rejects when it errors. Subscribe before start. */
export function whenPipelineDone(
  actor: Actor<PipelineMachine>,
): Promise<{ status: FinalStatus; context: PipelineMachineContext }> {
  return new Promise((resolve, reject) => {
    actor.subscribe({
      next(snapshot) {
        if (snapshot.status !== 'done') return;
        resolve({
          status: finalStatusOf(snapshot.value),
          context: snapshot.context,
        });
      },
      error: reject,
    });
  });
}
