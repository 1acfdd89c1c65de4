import { relative } from 'node:path';
import type { BranchCheckpointStore } from '../actors/parallel/branch-checkpoints.js';
import { outcomeToStatusFile } from '../actors/status-file.js';
import type { Outcome } from '../compiler/outcome.js';
import type { StageStore, StageVisit } from '../machines/stage-store.js';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import { type CheckpointParts, checkpointText } from './checkpoint-delta.js';
import type { RunRecorder } from './run-recorder.js';
import { readStagePanelFiles } from './stage-panel-files.js';

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
  /**
   * A fan-out's branch finished (`checkpoint` is its line of `branch-results.jsonl`); `stage` is the
   * parallel node's folder relative to the run directory.
   */
  branch(stage: string, branch: string, checkpoint: unknown): void;
  /** The parallel node's visit completed: its finished branches are forgotten (a later visit runs them all). */
  branchesCleared(stage: string): void;
  /**
   * What a stage's node panel shows (prompt, response, tool output, diff: `readStagePanelFiles`), by
   * file name, for a view on another machine; none: the sink keeps no such files.
   */
  stageFiles?(stage: string, files: Readonly<Record<string, string>>): void;
  /**
   * The objects snapshot `commit` of the working tree added since the one handed over before, as a git
   * bundle (decision 0331): handed over before the checkpoint naming it. None: the tree stays here.
   */
  treeBundle?(commit: string, bundle: Buffer): void;
  settled(): Promise<void>;
}

/**
 * A run kept in its run directory (the recorder given) and, fact by fact, in a sink: the directory stays
 * the working copy a node's files live in, the sink is the record another machine continues from.
 */
export class MirroredRunRecorder implements RunRecorder {
  readonly stages: StageStore;
  readonly branches: BranchCheckpointStore;
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
        const stage = relative(runDir, visit.stageDir);
        sink.stage(stage, outcomeToStatusFile(outcome));
        sink.stageFiles?.(stage, readStagePanelFiles(visit.stageDir));
      },
      exists: (stageDir) => stages.exists(stageDir),
    };
    // A branch goes to the sink as it is saved, in the same turn as its last node's events: the record
    // never shows a branch's node complete without the branch (a continuing worker reads it back first).
    this.branches = {
      open: (stageDir) => {
        const log = inner.branches.open(stageDir);
        const stage = relative(runDir, stageDir);
        return {
          save: (checkpoint) => {
            const saved = log.save(checkpoint);
            sink.branch(stage, checkpoint.record.branch_id, checkpoint);
            return saved;
          },
          prepare: () => log.prepare(),
          load: () => log.load(),
          close: () => log.close(),
          clear: () => {
            log.clear();
            sink.branchesCleared(stage);
          },
        };
      },
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
