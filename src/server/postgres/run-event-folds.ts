import type { PipelineEvent } from '../../shared/pipeline-event.js';
import { applyNodeStatus, type NodeStatus } from '../node-statuses.js';
import { emptyRunSummary, foldRunSummary, type RunSummary } from '../run-summary.js';

/** What a server shows of a run besides its record, folded from the run's events. */
export interface RunFold {
  /** The last event folded in (its sequence number in the database). */
  seq: number;
  statuses: Map<string, NodeStatus>;
  summary: RunSummary;
}

/** Events read from the database at a time. */
export const EVENTS_PAGE = 500;

type ReadEvents = (
  id: string,
  after: number,
  limit: number,
) => Promise<{ seq: number; event: PipelineEvent }[]>;

/**
 * Node statuses and summaries of runs that execute on workers, for a server whose disk holds none of
 * their files: folded from the database's events, each event once, read only when the run has events
 * the fold has not seen (`eventCount`, kept current by NOTIFY).
 */
export class RunEventFolds {
  readonly #read: ReadEvents;
  readonly #eventCount: (id: string) => number;
  readonly #folds = new Map<string, RunFold>();
  readonly #reading = new Map<string, Promise<void>>();

  constructor(read: ReadEvents, eventCount: (id: string) => number) {
    this.#read = read;
    this.#eventCount = eventCount;
  }

  /** The fold as far as it has read (empty before the first `catchUp`). */
  fold(id: string): RunFold {
    let fold = this.#folds.get(id);
    if (!fold) {
      fold = { seq: 0, statuses: new Map(), summary: emptyRunSummary() };
      this.#folds.set(id, fold);
    }
    return fold;
  }

  /** Fold in the run's events committed since the last read; one read at a time per run. */
  async catchUp(id: string): Promise<RunFold> {
    const fold = this.fold(id);
    // A read already under way may have passed the end before the newest events were committed: once
    // it is done, read again while the count says there is more (and the last read found some).
    while (fold.seq < this.#eventCount(id)) {
      const before = fold.seq;
      let reading = this.#reading.get(id);
      const joined = reading !== undefined;
      if (!reading) {
        reading = this.#readMore(id, fold).finally(() => this.#reading.delete(id));
        this.#reading.set(id, reading);
      }
      await reading;
      if (!joined && fold.seq === before) break;
    }
    return fold;
  }

  async #readMore(id: string, fold: RunFold): Promise<void> {
    for (;;) {
      const rows = await this.#read(id, fold.seq, EVENTS_PAGE);
      for (const { seq, event } of rows) {
        if (seq <= fold.seq) continue;
        applyNodeStatus(fold.statuses, event);
        fold.summary = foldRunSummary(fold.summary, event);
        fold.seq = seq;
      }
      if (rows.length < EVENTS_PAGE) return;
    }
  }
}
