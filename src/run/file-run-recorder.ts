import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type BranchCheckpointStore, fileBranchCheckpoints } from '../actors/parallel/branch-checkpoints.js';
import { type LineFile, openLineFile } from '../shared/line-file.js';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import { removePresentFile } from '../shared/remove-file.js';
import { CommitFailure, WriteLane } from '../shared/write-lane.js';
import { createCheckpointWriter } from './checkpoint.js';
import type { CheckpointParts } from './checkpoint-delta.js';
import { writeRunFiles } from './run-directory.js';
import { RunEventFeed } from './run-event-feed.js';
import type { RunManifest } from './run-manifest.js';
import { RunRecordError, type RunRecorder, recording } from './run-recorder.js';
import { FileStageStore } from './stage-records.js';

export interface FileRunRecorderOptions {
  runDir: string;
  /** A new run (its pipeline copy and manifest are written); false: a resume appends to what is there. */
  fresh: boolean;
  /** A new run's DOT source and manifest. */
  source?: string;
  manifest?: RunManifest;
  /** fsync what a crash must not lose (default true). */
  durable?: boolean;
  /** `--checkpoint-dir`: a timestamped history of checkpoints there too. */
  checkpointDir?: string;
  /** Restarts the run had made before (a resume): a restart's checkpoint first writes the waiting records. */
  restarts?: number;
  /** A write made off the event loop failed (nobody waits for it): the engine stops the run. */
  onLateFailure: (error: RunRecordError) => void;
}

/**
 * A run kept in its run directory: `events.jsonl`, the checkpoint journal behind `checkpoint.json`, one
 * folder per node visit with its `status.json`, the fan-outs' finished branches, and, for a new run,
 * `pipeline.dot` and `manifest.json` (in place before the first checkpoint).
 *
 * Every write is an operation of the run's one write lane (decision 0470): made on the thread pool, in
 * the order the run made them, fsync'd (in a durable run) in group commits with the other runs of the
 * process; the event loop never waits for the disk. `recorded()` is when they are all done.
 */
export class FileRunRecorder implements RunRecorder {
  readonly stages: FileStageStore;
  /** Each parallel node's `branch-results.jsonl` in its stage folder. */
  readonly branches: BranchCheckpointStore;
  readonly #eventsFile: string;
  readonly #fresh: boolean;
  readonly #lane: WriteLane;
  readonly #checkpoints: ReturnType<typeof createCheckpointWriter>;
  readonly #log: LineFile;
  readonly #feed: RunEventFeed;
  #restartsRecorded: number;
  // Once the run said it is over, its events reach readers only after every record is on disk.
  #publishing: Promise<void> | undefined;

  constructor(options: FileRunRecorderOptions) {
    const { runDir } = options;
    this.#fresh = options.fresh;
    this.#restartsRecorded = options.restarts ?? 0;
    this.#eventsFile = join(runDir, 'events.jsonl');
    this.#lane = new WriteLane({
      durable: options.durable ?? true,
      onFailure: (failure) => options.onLateFailure(new RunRecordError(failure.what, failure.cause)),
    });
    // The run's routing nodes' records are made whenever checkpoint.json is written.
    this.stages = new FileStageStore(runDir, this.#lane);
    this.branches = fileBranchCheckpoints(this.#lane);
    // Before anything is queued: only this can refuse to start (a --checkpoint-dir it cannot make).
    this.#checkpoints = createCheckpointWriter({
      runDir,
      lane: this.#lane,
      ...(options.checkpointDir ? { historyDir: options.checkpointDir } : {}),
      fresh: options.fresh,
      keepHistory: true,
      beforeSnapshot: () => this.stages.flush(),
    });
    if (options.fresh && options.source !== undefined && options.manifest)
      writeRunFiles(this.#lane, runDir, options.source, options.manifest);
    // Where this run's lines begin (a resume appends after the earlier runs'): `events()` replays from there.
    const start = existsSync(this.#eventsFile) ? statSync(this.#eventsFile).size : 0;
    // A burst of events (a step emits several in one transition) is one write, ordered before the
    // checkpoint that follows them.
    this.#log = openLineFile(this.#eventsFile, this.#lane, { sync: false });
    this.#feed = new RunEventFeed(this.#eventsFile, start, () => this.#lane.settled());
  }

  event(event: PipelineEvent): void {
    this.#log.append(JSON.stringify(event));
    if (this.#publishing) this.#publishing = this.#publishing.then(() => this.#feed.publish(event));
    else this.#feed.publish(event);
  }

  checkpoint(parts: CheckpointParts): void {
    // A restart forgets the completed nodes: the records of those still waiting must be on disk first.
    if (parts.header.restarts !== this.#restartsRecorded) {
      this.stages.flush();
      this.#restartsRecorded = parts.header.restarts;
    }
    recording(`writing the checkpoint ${this.#checkpoints.path}`, () => this.#checkpoints.write(parts));
  }

  beforeWork(): void {
    this.#checkpoints.flush();
  }

  beforeEnd(): void {
    this.stages.flush();
    this.#publishing ??= this.#lane.settled().catch(() => {});
  }

  recorded(): Promise<void> {
    return this.#lane.settled().catch((error: unknown) => {
      throw asRecordError(error);
    });
  }

  events(): AsyncIterableIterator<PipelineEvent> {
    return this.#feed.events();
  }

  async close(): Promise<void> {
    this.#checkpoints.close();
    this.#log.close();
    try {
      await this.#lane.settled();
    } catch (error) {
      throw asRecordError(error);
    } finally {
      await this.#publishing;
      this.#feed.end();
    }
  }

  abandon(): void {
    // Queued this turn and never run: the events of a run that did not start must not appear later.
    this.#lane.discard();
    this.#feed.end();
    // A new run's log is its own: gone with it, so the folder can take the next run. (Its pipeline copy
    // and manifest were queued this turn: discarded unwritten.)
    if (this.#fresh) removePresentFile(this.#eventsFile);
  }
}

function asRecordError(error: unknown): RunRecordError {
  if (error instanceof RunRecordError) return error;
  if (error instanceof CommitFailure) return new RunRecordError(error.what, error.cause);
  return new RunRecordError('writing the run', error);
}
