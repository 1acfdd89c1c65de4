import type { PipelineMachineContext } from '../machines/machine-context.js';
import { valuesWithVisits } from '../machines/visit-counts.js';
import type { FinalStatus } from '../machines/watch-pipeline-actor.js';
import { partialNodesOf, type RunResult, runQuality } from './run-types.js';

/**
 * How a run ended, from the pipeline actor's final state and context: the `RunResult` its caller gets
 * and the data of the `pipeline.finalize` event that closes its event stream.
 */
export function runOutcome(
  status: FinalStatus,
  context: PipelineMachineContext,
  run: { runId: string; runDir: string; usage?: Record<string, unknown> },
): { result: RunResult; finalize: Record<string, unknown> } {
  // A branch that reached its fan-in (a run started as one, by an embedder) completed.
  const final = status === 'branch_done' ? 'completed' : status;
  const failure = final === 'paused' ? undefined : context.failure;
  const quality = runQuality(final, context.failedNodes);
  const partialNodes = partialNodesOf(context.nodeOutcomes);
  const budgetExceeded = context.pausedFor?.reason === 'budget' ? context.pausedFor.message : undefined;
  const reason = failure?.reason ?? context.pausedFor?.message;
  return {
    finalize: {
      status: final,
      quality,
      ...(reason !== undefined ? { reason } : {}),
      failed_nodes: [...context.failedNodes],
      partial_nodes: partialNodes,
    },
    result: {
      status: final,
      quality,
      runId: run.runId,
      runDir: run.runDir,
      ...(context.stoppedAt ? { stoppedAt: context.stoppedAt } : {}),
      ...(failure ? { failure } : {}),
      ...(budgetExceeded !== undefined ? { budgetExceeded } : {}),
      ...(run.usage ? { usage: run.usage } : {}),
      context: valuesWithVisits(context.values, context.visits),
      completedNodes: [...context.completedNodes],
      failedNodes: [...context.failedNodes],
      partialNodes,
    },
  };
}
