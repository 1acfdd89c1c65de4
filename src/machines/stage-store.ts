import type { Outcome } from '../compiler/outcome.js';

/** One node visit, as its record is kept. */
export interface StageVisit {
  /** The directory of the run, parallel branch or child pipeline the visit belongs to. */
  runDir: string;
  /** The node's stage directory (`stageDirFor`). */
  stageDir: string;
  /** A built-in start, exit or conditional node: it writes nothing of its own in its folder. */
  routing: boolean;
}

/**
 * Where node visits are recorded: each node's stage folder and its `status.json`. The machine says what
 * happened; the run's store decides how it is kept (the file store makes the run's routing nodes'
 * records with its next checkpoint).
 */
export interface StageStore {
  /**
   * A visit is about to run: for a node that does work its folder exists, and a `status.json` an earlier
   * visit left is gone (unless the outcome is scripted, which writes its own at once).
   */
  begin(visit: StageVisit, options: { scripted: boolean }): void;
  /** The visit's outcome, as its `status.json`; one the handler wrote itself stands when `keepWritten`. */
  record(visit: StageVisit, outcome: Outcome, options: { keepWritten: boolean }): void;
  /** Whether a stage folder exists yet: a manager steers only a child node that has started. */
  exists(stageDir: string): boolean;
}

/** For a machine given no store: visits leave no record (nothing is written anywhere). */
export const unrecordedStages: StageStore = {
  begin() {},
  record() {},
  exists: () => false,
};
