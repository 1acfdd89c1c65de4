import { definedFields } from '../shared/defined-fields.js';
import type { ChildCheckpoint } from './child-pipeline-store.js';
import type { PipelineMachineInput } from './machine-context.js';

/** What a checkpoint must hold to continue a pipeline: the run's and a child's checkpoints both do. */
export type ResumableCheckpoint = Pick<
  ChildCheckpoint,
  | 'current_node'
  | 'completed_nodes'
  | 'node_outcomes'
  | 'node_retries'
  | 'context'
  | 'steps'
  | 'restarts'
  | 'failed_nodes'
  | 'arrived_by'
  | 'logs'
> & {
  /** The run's working-tree records (a child's checkpoint has none: its files are its manager's). */
  tree_head?: string;
  tree_commits?: Readonly<Record<string, string>>;
  tree_skipped?: Readonly<Record<string, string>>;
};

/** The machine input that continues a pipeline (a run, or a child) from its checkpoint. */
export function resumeInputFrom(
  checkpoint: ResumableCheckpoint,
  base: Pick<PipelineMachineInput, 'runDir' | 'maxSteps' | 'tags'>,
): PipelineMachineInput {
  return {
    ...base,
    startAt: checkpoint.current_node,
    values: checkpoint.context,
    completedNodes: checkpoint.completed_nodes,
    nodeOutcomes: checkpoint.node_outcomes,
    nodeRetries: checkpoint.node_retries,
    steps: checkpoint.steps,
    restarts: checkpoint.restarts,
    failedNodes: checkpoint.failed_nodes,
    logs: checkpoint.logs,
    resumed: true,
    ...definedFields({ arrivedBy: checkpoint.arrived_by }),
    ...(checkpoint.tree_head ? { treeHead: checkpoint.tree_head } : {}),
    ...definedFields({ treeCommits: checkpoint.tree_commits, treeSkipped: checkpoint.tree_skipped }),
  };
}
