import { readCheckpoint } from '../run/checkpoint.js';
import type { RunActionFacts } from '../shared/run-actions.js';

/**
 * What the rule of run actions (decision 0400) reads of a run directory the CLI was handed, from its
 * checkpoint: one that still says `running` was left by a process that stopped (a live one holds the
 * run's lock, which the resume then meets), so the run stands `interrupted`, as `attractor runs` lists it.
 */
export function runDirActionFacts(checkpointPath: string): RunActionFacts {
  const { status } = readCheckpoint(checkpointPath);
  return { status: status === 'running' ? 'interrupted' : status, checkpointed: true };
}
