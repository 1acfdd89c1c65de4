import type { PipelineGraph } from '../compiler/ir.js';
import type { Checkpoint } from './checkpoint.js';

/** Where a failed run starts again, and why it had stopped. */
export interface FailedRunRestart {
  node: string;
  reason: string;
}

/**
 * The node a resume of a failed run starts again at (docs/decisions/0010-idempotent-false-asks-before-a-rerun.md): the node its failure
 * names (the node with no route out, the goal gate left unsatisfied, the node the step limit
 * stopped), when the pipeline has it. Undefined when there is none (a jump to an unknown node).
 */
export function failedRunRestart(checkpoint: Checkpoint, graph: PipelineGraph): FailedRunRestart | undefined {
  if (checkpoint.status !== 'failed') return undefined;
  const node = checkpoint.failure?.node;
  if (node === undefined || !graph.nodes.some((n) => n.id === node)) return undefined;
  return { node, reason: checkpoint.failure?.reason ?? 'failed' };
}

/**
 * The checkpoint a failed run resumes from: at the node that failed, as a retry of it — its retry
 * budget renewed, its failure forgotten (so a success now leaves the run clean) — with everything
 * else (completed nodes, context, visit counts, other nodes' outcomes) as the run left it.
 */
export function restartCheckpoint(checkpoint: Checkpoint, restart: FailedRunRestart): Checkpoint {
  const { [restart.node]: _retries, ...nodeRetries } = checkpoint.node_retries;
  const { [restart.node]: _outcome, ...nodeOutcomes } = checkpoint.node_outcomes;
  const { failure: _failure, arrived_by: arrivedBy, ...rest } = checkpoint;
  return {
    ...rest,
    status: 'running',
    current_node: restart.node,
    node_retries: nodeRetries,
    node_outcomes: nodeOutcomes,
    failed_nodes: checkpoint.failed_nodes.filter((id) => id !== restart.node),
    // The edge that led to the exit does not lead to a goal gate started again.
    ...(checkpoint.current_node === restart.node && arrivedBy !== undefined ? { arrived_by: arrivedBy } : {}),
  };
}
