import type { ReadScope } from '../compiler/files/read-scope.js';
import type { PipelineGraph } from '../compiler/ir.js';
import { ApiError } from './api-error.js';
import type { RunRecord } from './run-record.js';
import { RunRecords, refuseWhileDraining } from './run-records.js';
import type { RunService, Submission } from './run-service.js';
import type { ListRunsQuery, RunPage, RunStore } from './run-store.js';

/**
 * What both kinds of run service (`LocalRuns` executes here, `DatabaseRuns` on workers) answer alike
 * from their run records: a run, a page of runs, its graph, when its writes are kept, and draining.
 * Each adds how its runs execute (`enqueue`) and how it shows them.
 */
export abstract class RecordedRuns
  implements Pick<RunService, 'draining' | 'persisted' | 'get' | 'list' | 'graph'>
{
  protected readonly records: RunRecords;
  #draining = false;

  constructor(store: RunStore, readScope: (sourceFile: string) => ReadScope) {
    this.records = new RunRecords(store, readScope);
  }

  get draining(): boolean {
    return this.#draining;
  }

  persisted(id?: string): Promise<void> {
    return this.records.persisted(id);
  }

  get(id: string): RunRecord {
    return this.records.get(id);
  }

  list(query: ListRunsQuery): RunPage {
    return this.records.list(query);
  }

  graph(id: string): PipelineGraph {
    return this.records.graph(id);
  }

  /** Where a run goes once its record is made: a queue here, or the database's. */
  protected abstract enqueue(id: string): void;

  /** The record of a checked submission, handed on to execute. */
  protected accept(submission: Submission, graph: PipelineGraph): RunRecord {
    const record = this.records.create(submission, graph);
    this.enqueue(record.id);
    return this.get(record.id);
  }

  /** New work is refused (503 `DRAINING`) from now on. */
  protected stopTakingRuns(): void {
    this.#draining = true;
  }

  protected refuseWhileDraining(): void {
    refuseWhileDraining(this.#draining);
  }
}

/** An answer to a run that is neither at its gate nor interrupted there: 409 `QUESTION_NOT_PENDING`. */
export const questionOfEndedRun = (questionId: string, status: string): ApiError =>
  new ApiError(409, 'QUESTION_NOT_PENDING', `question ${questionId} is not pending (the run is ${status}).`);
