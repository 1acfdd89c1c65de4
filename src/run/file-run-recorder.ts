import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import { removePresentFile } from '../shared/remove-file.js';
import { createCheckpointWriter } from './checkpoint.js';
import type { CheckpointParts } from './checkpoint-delta.js';
import { openEventLog } from './event-log.js';
import { type RunFiles, writeRunFiles } from './run-directory.js';
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
  /** A deferred write failed (nobody waits for it): the engine stops the run. */
  onLateFailure: (error: RunRecordError) => void;
}

/**
 * A run kept in its run directory: `events.jsonl`, the checkpoint journal behind `checkpoint.json`
 * (docs/decisions/0055-checkpoint-journal.md), one folder per node visit with its `status.json`, and,
 * for a new run, `pipeline.dot` and `manifest.json` (fsync'd on the thread pool while the engine starts,
 * in place before the first checkpoint: docs/decisions/0054-run-files-fsynced-off-the-main-thread.md).
 */
export class FileRunRecorder implements RunRecorder {
  readonly stages: FileStageStore;
  readonly #runDir: string;
  readonly #eventsFile: string;
  readonly #fresh: boolean;
  readonly #checkpoints: ReturnType<typeof createCheckpointWriter>;
  readonly #log: ReturnType<typeof openEventLog>;
  readonly #feed: RunEventFeed;
  #runFiles: RunFiles | undefined;
  // Once they failed, no checkpoint may be written: it would name a run whose manifest is missing.
  #runFilesFailure: unknown;
  #restartsRecorded: number;

  constructor(options: FileRunRecorderOptions) {
    const { runDir } = options;
    this.#runDir = runDir;
    this.#fresh = options.fresh;
    this.#restartsRecorded = options.restarts ?? 0;
    this.#eventsFile = join(runDir, 'events.jsonl');
    // The run's routing nodes' records are made whenever checkpoint.json is written.
    this.stages = new FileStageStore(runDir);
    const durable = options.durable ?? true;
    this.#runFiles =
      options.fresh && options.source !== undefined && options.manifest
        ? writeRunFiles(runDir, options.source, options.manifest, { durable })
        : undefined;
    try {
      // Before the event log: of the two, only this one can refuse to start (a --checkpoint-dir it cannot make).
      this.#checkpoints = createCheckpointWriter({
        runDir,
        ...(options.checkpointDir ? { historyDir: options.checkpointDir } : {}),
        durable,
        fresh: options.fresh,
        keepHistory: true,
        beforeSnapshot: () => this.stages.flush(),
        onError: (error) =>
          options.onLateFailure(
            new RunRecordError(`writing the checkpoint ${this.#checkpoints.path}`, error),
          ),
      });
      // Where this run's lines begin (a resume appends after the earlier runs'): `events()` replays from there.
      const start = existsSync(this.#eventsFile) ? statSync(this.#eventsFile).size : 0;
      this.#log = openEventLog(this.#eventsFile, (error) =>
        options.onLateFailure(new RunRecordError(`writing ${this.#eventsFile}`, error)),
      );
      this.#feed = new RunEventFeed(this.#eventsFile, start, () => this.#log.flush());
    } catch (error) {
      this.#runFiles?.abandon();
      throw error;
    }
  }

  event(event: PipelineEvent): void {
    try {
      recording(`writing ${this.#eventsFile}`, () => this.#log.append(event));
    } finally {
      this.#feed.publish(event);
    }
  }

  checkpoint(parts: CheckpointParts): void {
    recording(`writing ${join(this.#runDir, 'manifest.json')} and pipeline.dot`, () =>
      this.#settleRunFiles(),
    );
    recording(`writing ${this.#eventsFile}`, () => this.#log.flush());
    // A restart forgets the completed nodes: the records of those still waiting must be on disk first.
    if (parts.header.restarts !== this.#restartsRecorded) {
      this.#flushStages();
      this.#restartsRecorded = parts.header.restarts;
    }
    recording(`writing the checkpoint ${this.#checkpoints.path}`, () => this.#checkpoints.write(parts));
  }

  beforeWork(): void {
    recording(`writing the checkpoint ${this.#checkpoints.path}`, () => this.#checkpoints.flush());
  }

  beforeEnd(): void {
    this.#flushStages();
  }

  events(): AsyncIterableIterator<PipelineEvent> {
    return this.#feed.events();
  }

  close(): void {
    let failure: RunRecordError | undefined;
    const attempt = (what: string, write: () => void): void => {
      try {
        recording(what, write);
      } catch (error) {
        failure ??= error as RunRecordError;
      }
    };
    // Settled by the first checkpoint already, unless the run ended before writing any.
    if (this.#runFilesFailure === undefined)
      attempt(`writing ${join(this.#runDir, 'manifest.json')}`, () => this.#settleRunFiles());
    attempt(`writing ${this.#checkpoints.path}`, () => this.#checkpoints.close());
    attempt(`writing ${this.#eventsFile}`, () => this.#log.close());
    this.#feed.end();
    if (failure) throw failure;
  }

  abandon(): void {
    this.#checkpoints.close();
    this.#log.close();
    this.#feed.end();
    this.#runFiles?.abandon();
    // A new run's log is its own: gone with it, so the folder can take the next run.
    if (this.#fresh) removePresentFile(this.#eventsFile);
  }

  #settleRunFiles(): void {
    if (this.#runFilesFailure !== undefined) throw this.#runFilesFailure;
    const files = this.#runFiles;
    this.#runFiles = undefined;
    try {
      files?.settle();
    } catch (error) {
      this.#runFilesFailure = error;
      throw error;
    }
  }

  #flushStages(): void {
    recording(`writing the stage folders of ${this.#runDir}`, () => this.stages.flush());
  }
}
