import type { RunRecordSink } from '../run/mirrored-run-recorder.js';
import type { RunStatus } from '../shared/run-view-json.js';
import type { RunRecord, StoredQuestion } from './run-record.js';

export interface ListRunsQuery {
  status?: RunStatus;
  /** Page size (default 50, at most 500). */
  limit?: number;
  /** Opaque cursor from the previous page's `next_cursor`. */
  cursor?: string;
}

export interface RunPage {
  runs: RunRecord[];
  next_cursor?: string;
}

/**
 * Everything the server keeps about runs, behind one interface so another store (PostgreSQL:
 * `PostgresRunStore`) can replace the file store without touching the routes. The run's own files
 * (checkpoint, events, stage folders) stay in its run directory either way; a database store keeps
 * its events, newest checkpoint and stage records too (`recordSink`).
 */
export interface RunStore {
  /** Where a new run's directory and its saved DOT source go. */
  runDirFor(id: string): string;
  create(record: RunRecord, source: string): void;
  get(id: string): RunRecord | undefined;
  /** The DOT source the run was submitted with. */
  source(id: string): string;
  update(id: string, patch: Partial<Omit<RunRecord, 'id' | 'created_at'>>): RunRecord;
  /** Newest first. */
  list(query?: ListRunsQuery): RunPage;
  questions(id: string): StoredQuestion[];
  saveQuestions(id: string, questions: StoredQuestion[]): void;
  /** Where a run keeps its record besides its run directory; absent: the directory alone (the file store). */
  recordSink?(id: string): RunRecordSink;
  /**
   * A fork made here (its run directory written by `forkRun`) continues on a worker: the store takes its
   * checkpoint, and the original's working-tree snapshots (decision 0331), so the worker that takes it
   * starts at the fork's node with the files as that node found them. Only a store workers read has it.
   */
  adoptFork?(from: string, to: string, runDir: string): Promise<void>;
  /** Resolves once everything recorded so far (of run `id` only, when given) is durable (a store that writes behind). */
  flush?(id?: string): Promise<void>;
  close?(): Promise<void>;
}
