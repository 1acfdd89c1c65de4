import type { PipelineGraph } from '../compiler/ir.js';
import type { Identity } from '../shared/identity.js';
import type { NodeStatus } from './node-statuses.js';
import type { EventSink } from './run-event-hub.js';
import type { RunRecord, RunRequestOptions, StoredQuestion } from './run-record.js';
import type { ListRunsQuery, RunPage } from './run-store.js';
import type { RunViewFacts } from './run-view.js';

/** A run's numbered events, replayed from an id and followed live (an SSE stream reads these). */
export interface RunEvents {
  readonly eventCount: number;
  subscribe(afterId: number, sink: EventSink): () => void;
}

export interface Submission {
  source: string;
  /** Path shown in diagnostics and used for `@file` prompts (`<inline>` for a posted source). */
  sourceFile: string;
  options: RunRequestOptions;
  /** Who submitted it (`IdentifyRequest`). */
  startedBy: Identity;
}

/**
 * What the HTTP API asks of a server's runs, wherever they execute: in this process (`LocalRuns`,
 * `attractor serve` with its file store) or on workers (`DatabaseRuns`, `--store postgres://…`).
 * Failures a client caused are `ApiError`s carrying their HTTP status.
 */
export interface RunService {
  /** True once a drain began: no new runs are taken. */
  readonly draining: boolean;
  /** Resolves once what the store was told (of run `id`, when given) is durable (stores write behind). */
  persisted(id?: string): Promise<void>;
  submit(submission: Submission): RunRecord;
  get(id: string): RunRecord;
  list(query: ListRunsQuery): RunPage;
  /** The pipeline as run `id` runs it: compiled with its goal and its parameters' values. */
  graph(id: string): PipelineGraph;
  hub(id: string): RunEvents;
  /** Read what a view of run `id` shows from wherever it is kept (a database's newest events). */
  catchUp(id: string): Promise<void>;
  /**
   * What a database holds of run `id`'s files (its newest checkpoint, a stage's `status.json`) when its
   * run directory is on another machine; undefined where the run directory is to be read.
   */
  stored(id: string, what: { stage: string } | 'checkpoint'): Promise<unknown>;
  /**
   * The files a database holds of run `id`'s stage for its node panel (prompt.md, response.md,
   * stdout.log, stderr.log, diff.patch: `readStagePanelFiles`); undefined where the run directory is read.
   */
  storedFiles(id: string, stage: string): Promise<Record<string, string> | undefined>;
  nodeStatuses(id: string): Record<string, NodeStatus>;
  /** What a view of the run reads besides its record (`runView`). */
  viewFacts(record: RunRecord): RunViewFacts;
  /** The run's pending questions. */
  questions(id: string): StoredQuestion[];
  /** `by`, here and below: who asks (decision 0410), recorded as `answered_by`, `cancelled_by`, …. */
  answer(id: string, questionId: string, text: string, by: Identity): Promise<void>;
  /** Cancel a run; resolves with its record once it has stopped (or the cancel is recorded). */
  cancel(id: string, by: Identity): Promise<RunRecord>;
  resume(id: string, by: Identity): Promise<RunRecord>;
  /** A new run standing where run `id` stood as it entered `fromNode`, queued like a resume. */
  fork(id: string, fromNode: string, set: Readonly<Record<string, string>>, by: Identity): Promise<RunRecord>;
  /** Resume every run left interrupted (`--resume-interrupted`); returns their ids. */
  resumeInterrupted(): Promise<string[]>;
  /** SIGTERM: take no new runs, and let those running here stop (see each implementation). */
  drain(graceMs?: number): Promise<void>;
}
