import type { RunRecord, RunStatus, StoredQuestion } from './run-record.js';

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
 * Everything the server keeps about runs, behind one interface so another store (PostgreSQL, for
 * several servers sharing the work) can replace the file store without touching the routes.
 * The run's own files (checkpoint, events, stage folders) stay in its run directory either way.
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
}
