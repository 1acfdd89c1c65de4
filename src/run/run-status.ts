import type { Checkpoint } from './checkpoint.js';

/**
 * Where a run stands, in the words `attractor runs` and the server use alike (decision 0202). `queued`
 * is the server's alone (accepted, not started); the others can all be read from a run directory.
 */
export const RUN_STATUSES = [
  'queued',
  'running',
  'waiting',
  'paused',
  'interrupted',
  'failed',
  'completed',
  'cancelled',
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** What a run directory says about its run, read by `readRunSummary`. */
export interface RunDirectoryFacts {
  /** `checkpoint.json`'s (or the journal's newest) `status`; undefined before the first checkpoint. */
  checkpointStatus?: Checkpoint['status'];
  /** A live process holds the run's `run.lock`. */
  lockHeld: boolean;
  /** A human gate asked a question nobody has answered yet (`questions/` without its `answers/`). */
  openQuestion: boolean;
}

/**
 * The status of a run from its directory. A finished run's checkpoint says how it ended, whatever else
 * lies there. Otherwise the lock decides: a live holder is running (waiting, when a gate's question is
 * open); no live holder means the run stopped without saying so (killed, crashed, the machine rebooted),
 * unless its checkpoint says it paused (Ctrl-C, a spent budget).
 */
export function deriveRunStatus(facts: RunDirectoryFacts): Exclude<RunStatus, 'queued'> {
  const { checkpointStatus } = facts;
  if (checkpointStatus === 'completed' || checkpointStatus === 'failed' || checkpointStatus === 'cancelled')
    return checkpointStatus;
  if (facts.lockHeld) return facts.openQuestion ? 'waiting' : 'running';
  return checkpointStatus === 'paused' ? 'paused' : 'interrupted';
}
