import type { BranchCheckpointStore } from '../actors/parallel/branch-checkpoints.js';
import type { StageStore } from '../machines/stage-store.js';
import { AttractorError } from '../shared/errors.js';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import type { CheckpointParts } from './checkpoint-delta.js';

/**
 * What a run keeps of itself: its events, its checkpoints and its nodes' records. The engine says what
 * happened; the recorder decides how it is kept. `FileRunRecorder` keeps a run directory (events.jsonl,
 * the checkpoint journal and checkpoint.json, stage folders); a database store implements the same.
 *
 * Each method that writes throws a `RunRecordError` when it cannot: the engine then stops the run, and
 * its result rejects with it. Failures nobody is waiting for (a write made off the event loop) go to
 * `onLateFailure`.
 */
export interface RunRecorder {
  /** Where handlers record node visits. */
  readonly stages: StageStore;
  /** Where fan-outs keep their finished branches, so a continued fan-out runs only the others. */
  readonly branches: BranchCheckpointStore;
  /** One event of the run, in order: on record no later than the next checkpoint. */
  event(event: PipelineEvent): void;
  /** The machine's checkpoint after a step (and on retry, pause, cancel and at the end). */
  checkpoint(parts: CheckpointParts): void;
  /** A node that does work is about to start: whoever reads the run now, or after a crash, sees it there. */
  beforeWork(): void;
  /** The run is about to say it is over: every node's record must be in place when that is heard. */
  beforeEnd(): void;
  /**
   * Resolves once everything recorded so far is on disk (durable where the run is): a node that does
   * work starts only then. Rejects with what could not be kept (the run is being stopped for it).
   */
  recorded(): Promise<void>;
  /** The run's events from its first (this run's, not an earlier attempt's), then live ones until it ends. */
  events(): AsyncIterableIterator<PipelineEvent>;
  /** The run stopped: make everything durable and release what is open. Rejects with what could not be kept. */
  close(): Promise<void>;
  /** The run never started: leave nothing behind that a later run would trip over. */
  abandon(): void;
}

/** A write the run depends on failed; `what` says which, in words a user can act on. */
export class RunRecordError extends AttractorError {
  constructor(
    readonly what: string,
    cause: unknown,
  ) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super('RUN_OUTPUT_FAILED', `${what} failed: ${detail}.`, { cause });
  }
}

/** Run `write`, turning what it throws into a `RunRecordError` about `what`. */
export function recording<T>(what: string, write: () => T): T {
  try {
    return write();
  } catch (error) {
    throw error instanceof RunRecordError ? error : new RunRecordError(what, error);
  }
}
