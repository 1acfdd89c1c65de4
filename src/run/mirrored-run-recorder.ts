import { relative } from 'node:path';
import { outcomeToStatusFile } from '../actors/status-file.js';
import type { Outcome } from '../compiler/outcome.js';
import type { StageStore, StageVisit } from '../machines/stage-store.js';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import { type CheckpointParts, checkpointText } from './checkpoint-delta.js';
import type { RunRecorder } from './run-recorder.js';

/**
 * Where a run's record is kept besides its run directory (a database): each call hands over one fact, in
 * the order the run made them; the sink writes them in that order, off the event loop. `settled()`
 * resolves once all of them are kept and rejects with the first it could not keep.
 */
export interface RunRecordSink {
  event(event: PipelineEvent): void;
  /** The whole checkpoint, as `checkpoint.json` holds it. */
  checkpoint(text: string): void;
  /** A node visit's `status.json`; `stage` is its folder relative to the run directory. */
  stage(stage: string, status: unknown): void;
  settled(): Promise<void>;
}

/**
 * A run kept in its run directory (the recorder given) and, fact by fact, in a sink: the directory stays
 * the working copy a node's files live in, the sink is the record another machine continues from.
 */
export class MirroredRunRecorder implements RunRecorder {
  readonly stages: StageStore;
  readonly #inner: RunRecorder;
  readonly #sink: RunRecordSink;

  constructor(inner: RunRecorder, sink: RunRecordSink, runDir: string) {
    this.#inner = inner;
    this.#sink = sink;
    const stages = inner.stages;
    this.stages = {
      begin: (visit, options) => stages.begin(visit, options),
      record: (visit: StageVisit, outcome: Outcome, options) => {
        stages.record(visit, outcome, options);
        sink.stage(relative(runDir, visit.stageDir), outcomeToStatusFile(outcome));
      },
      exists: (stageDir) => stages.exists(stageDir),
    };
  }

  event(event: PipelineEvent): void {
    this.#sink.event(event);
    this.#inner.event(event);
  }

  checkpoint(parts: CheckpointParts): void {
    this.#inner.checkpoint(parts);
    this.#sink.checkpoint(checkpointText(parts));
  }

  beforeWork(): void {
    this.#inner.beforeWork();
  }

  beforeEnd(): void {
    this.#inner.beforeEnd();
  }

  recorded(): Promise<void> {
    return this.#inner.recorded();
  }

  events(): AsyncIterableIterator<PipelineEvent> {
    return this.#inner.events();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  abandon(): void {
    this.#inner.abandon();
  }
}
