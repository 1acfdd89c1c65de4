import type { PipelineGraph } from '../compiler/ir.js';
import type { PipelineMachineContext } from '../machines/machine-context.js';
import { valuesWithVisits } from '../machines/visit-counts.js';
import type { FinalStatus } from '../machines/watch-pipeline-actor.js';
import { definedFields } from '../shared/defined-fields.js';
import type { EventData } from '../shared/pipeline-event.js';
import { runEnding } from './run-ending.js';
import { partialNodesOf, type RunResult } from './run-types.js';

/**
 * How a run ended, from the pipeline actor's final state and context: the `RunResult` its caller gets
 * and the data of the `pipeline.finalize` event that closes its event stream.
 */
export function runOutcome(
  graph: PipelineGraph,
  status: FinalStatus,
  context: PipelineMachineContext,
  run: { runId: string; runDir: string; usage?: Record<string, unknown> },
): { result: RunResult; finalize: EventData<'pipeline.finalize'> } {
  // A branch that reached its fan-in (a run started as one, by an embedder) completed.
  const final = status === 'branch_done' ? 'completed' : status;
  const failure = final === 'paused' ? undefined : context.failure;
  const ending = runEnding(graph, {
    status: final,
    ...(context.stoppedAt ? { stoppedAt: context.stoppedAt } : {}),
    failedNodes: context.failedNodes,
    nodeOutcomes: context.nodeOutcomes,
    completedNodes: context.completedNodes,
  });
  const partialNodes = partialNodesOf(context.nodeOutcomes);
  const budgetExceeded = context.pausedFor?.reason === 'budget' ? context.pausedFor.message : undefined;
  const reason = failure?.reason ?? context.pausedFor?.message ?? ending.deadEnd?.reason;
  return {
    finalize: {
      status: final,
      quality: ending.quality,
      ...definedFields({ reason }),
      failed_nodes: [...context.failedNodes],
      recovered_nodes: ending.recoveredNodes,
      partial_nodes: partialNodes,
      // Where it stopped, for a reader of the log alone (`attractor attach`'s last line).
      ...(context.stoppedAt ? { stopped_at: context.stoppedAt } : {}),
      ...(failure?.node !== undefined ? { failed_at: failure.node } : {}),
    },
    result: {
      status: final,
      quality: ending.quality,
      recoveredNodes: ending.recoveredNodes,
      ...definedFields({ deadEnd: ending.deadEnd }),
      runId: run.runId,
      runDir: run.runDir,
      ...(context.stoppedAt ? { stoppedAt: context.stoppedAt } : {}),
      ...definedFields({ failure, budgetExceeded, usage: run.usage }),
      context: valuesWithVisits(context.values, context.visits),
      completedNodes: [...context.completedNodes],
      failedNodes: [...context.failedNodes],
      partialNodes,
    },
  };
}
