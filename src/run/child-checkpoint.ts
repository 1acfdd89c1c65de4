import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ContextLogEntrySchema } from '../actors/pipeline-context.js';
import { StageStatusSchema } from '../compiler/outcome.js';
import type { PipelineMachineContext } from '../machines/machine-context.js';
import { valuesWithVisits } from '../machines/visit-counts.js';
import { writeFileAtomic } from '../shared/atomic-write.js';

const ChildCheckpointSchema = z.object({
  source_sha256: z.string(),
  status: z.string(),
  current_node: z.string(),
  completed_nodes: z.array(z.string()),
  node_outcomes: z.record(z.string(), StageStatusSchema),
  node_retries: z.record(z.string(), z.number()),
  context: z.record(z.string(), z.unknown()),
  steps: z.number(),
  restarts: z.number(),
  failed_nodes: z.array(z.string()),
  arrived_by: z.number().optional(),
  logs: z.array(ContextLogEntrySchema).default([]),
});
export type ChildCheckpoint = z.infer<typeof ChildCheckpointSchema>;

const FILE = 'checkpoint.json';

/**
 * A manager loop's child pipeline keeps its own checkpoint in `<manager node>/child/checkpoint.json`,
 * written (fsync'd) at every step of the child like the run's. When the manager node runs again after
 * a crash, the child continues from there instead of starting over; a child that had already finished
 * reports its result without running again. The manager handler clears it when its visit completes.
 */
export function writeChildCheckpoint(
  childDir: string,
  sha: string,
  context: PipelineMachineContext,
  currentNode: string,
  status: string,
): void {
  const checkpoint: ChildCheckpoint = {
    source_sha256: sha,
    status,
    current_node: currentNode,
    completed_nodes: context.completedNodes,
    node_outcomes: context.nodeOutcomes,
    node_retries: context.nodeRetries,
    context: valuesWithVisits(context.values, context.visits),
    steps: context.steps,
    restarts: context.restarts,
    failed_nodes: context.failedNodes,
    logs: [...context.logs],
    ...(context.arrivedBy !== undefined ? { arrived_by: context.arrivedBy } : {}),
  };
  writeFileAtomic(join(childDir, FILE), `${JSON.stringify(checkpoint)}\n`);
}

/** The child's checkpoint, when it is one of this same child pipeline (unchanged source). */
export function readChildCheckpoint(childDir: string, sha: string): ChildCheckpoint | undefined {
  const file = join(childDir, FILE);
  if (!existsSync(file)) return undefined;
  try {
    const checkpoint = ChildCheckpointSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
    return checkpoint.source_sha256 === sha ? checkpoint : undefined;
  } catch {
    return undefined;
  }
}

export function clearChildCheckpoint(childDir: string): void {
  rmSync(join(childDir, FILE), { force: true });
}
