import type { Identity } from '../shared/identity.js';
import { ApiError } from './api-error.js';
import { checkSubmission } from './check-submission.js';
import { gateDeadline } from './gate-deadline.js';
import { withOfflineAnswer } from './http-interviewer.js';
import type { NodeStatus } from './node-statuses.js';
import { type ServerSideRuns, scheduleCommitted } from './postgres/remote-runs.js';
import { questionOfEndedRun, RecordedRuns } from './recorded-runs.js';
import { refuseRunAction } from './refuse-run-action.js';
import type { RunRecord, StoredQuestion } from './run-record.js';
import type { RunEvents, RunService, Submission } from './run-service.js';
import type { RunStore } from './run-store.js';
import type { RunViewFacts } from './run-view.js';
import { serverReadScope } from './server-read-scope.js';

export interface DatabaseRunsOptions {
  store: RunStore;
  runs: ServerSideRuns;
  /** Tool commands (and manager loops' children) are accepted only when started with `--allow-tools`. */
  allowTools: boolean;
  /** The only folders submitted pipelines may read named files from (`--allow-dir`; default none). */
  allowDirs?: readonly string[];
  /** Whether runs that call real models are accepted (workers bring their keys). */
  realRuns: boolean;
}

/**
 * `attractor serve --store postgres://…`: runs execute on workers (`attractor worker`), never here. This
 * server schedules them on the queue, shows them from what the database holds (their run directories
 * are on other machines), keeps answers with their questions, and cancels through the database.
 */
export class DatabaseRuns extends RecordedRuns implements RunService {
  readonly #options: DatabaseRunsOptions;
  readonly #store: RunStore;
  readonly #runs: ServerSideRuns;

  constructor(options: DatabaseRunsOptions) {
    super(options.store, (file) => this.#readScope(file));
    this.#options = options;
    this.#store = options.store;
    this.#runs = options.runs;
  }

  submit(submission: Submission): RunRecord {
    this.refuseWhileDraining();
    // No `workingDirs`: this server cannot know the workers' folders; each worker checks its own.
    const graph = checkSubmission(submission, {
      allowTools: this.#options.allowTools,
      realRuns: this.#options.realRuns,
      readScope: (file) => this.#readScope(file),
    });
    return this.accept(submission, graph);
  }

  hub(id: string): RunEvents {
    this.get(id);
    return this.#runs.eventHub(id);
  }

  /** The events stored since the last view: what a view of run `id` shows is folded from them. */
  async catchUp(id: string): Promise<void> {
    if (this.#store.get(id)) await this.#runs.catchUp(id);
  }

  async stored(id: string, what: { stage: string } | 'checkpoint'): Promise<unknown> {
    this.get(id);
    return what === 'checkpoint' ? this.#runs.checkpoint(id) : this.#runs.stage(id, what.stage);
  }

  async storedFiles(id: string, stage: string): Promise<Record<string, string> | undefined> {
    this.get(id);
    return this.#runs.stageFiles(id, stage);
  }

  nodeStatuses(id: string): Record<string, NodeStatus> {
    this.get(id);
    return Object.fromEntries(this.#runs.folded(id).statuses);
  }

  viewFacts(record: RunRecord): RunViewFacts {
    return {
      eventCount: this.hub(record.id).eventCount,
      // Only a running run can be waiting for a person; the others' questions are not read.
      pendingQuestions: record.status === 'running' ? this.questions(record.id).length : 0,
      summary: this.#runs.folded(record.id).summary,
    };
  }

  questions(id: string): StoredQuestion[] {
    this.get(id);
    return this.#store.questions(id).filter((q) => q.status === 'pending');
  }

  async answer(id: string, questionId: string, text: string, by: Identity): Promise<void> {
    const record = this.get(id);
    if (['waiting', 'running', 'queued'].includes(record.status)) {
      // Past its gate's timeout the question is closed, as in one process: the default is on its way.
      const asked = this.#store.questions(id).find((q) => q.id === questionId);
      const deadline = asked?.status === 'pending' ? gateDeadline(asked) : undefined;
      if (deadline !== undefined && deadline <= Date.now()) {
        throw new ApiError(
          409,
          'QUESTION_NOT_PENDING',
          `question ${questionId} is closed: its gate timed out (and takes its default, if it has one).`,
        );
      }
      // Kept with the question; the run's continuation asks the gate again and takes it. Scheduled even
      // while the run still shows running: its worker may be releasing it right now. A compare-and-set:
      // of two answers sent to two servers at once, the second finds the question answered (409).
      await this.#runs.changeQuestions(id, (stored) => withOfflineAnswer(stored, questionId, text, by));
      // As the run is now, after the answer's commit (its worker may have released it meanwhile).
      if (this.get(id).status === 'waiting') this.#store.update(id, { status: 'queued' });
      this.enqueue(id);
      return;
    }
    if (record.status !== 'interrupted') throw questionOfEndedRun(questionId, record.status);
    await this.#runs.changeQuestions(id, (stored) => withOfflineAnswer(stored, questionId, text, by));
  }

  /**
   * Not taken by a worker: cancelled before any can. Taken (perhaps this very moment): its worker hears
   * the cancel, whether it runs the run already or is about to start it; this waits until it has stopped.
   */
  async cancel(id: string, by: Identity): Promise<RunRecord> {
    const record = this.get(id);
    refuseRunAction(id, 'cancel', { status: record.status, checkpointed: false });
    if (record.status !== 'running' && (await this.#runs.cancelUntaken(id, by))) return this.get(id);
    await this.#runs.requestCancel(id, by);
    return this.#untilNot(id, ['queued', 'running'], 10_000);
  }

  async resume(id: string, by: Identity | undefined): Promise<RunRecord> {
    this.refuseWhileDraining();
    const record = this.get(id);
    // A failed run starts again at the node that failed, a cancelled one where it stopped. Its run
    // directory is on the worker that ran it: the database's checkpoint says whether it has one.
    const checkpointed = (await this.#runs.checkpoint(id)) !== undefined;
    refuseRunAction(id, 'resume', { status: record.status, checkpointed });
    this.records.reopen(id, by);
    this.enqueue(id);
    return this.get(id);
  }

  async fork(
    id: string,
    fromNode: string,
    set: Readonly<Record<string, string>>,
    by: Identity,
  ): Promise<RunRecord> {
    this.refuseWhileDraining();
    // Made here, it runs on a worker: the store takes its checkpoint and the original's snapshots, so
    // the worker starts at the fork's node with the files as that node found them.
    const fork = await this.records.fork(id, fromNode, set, by);
    if (fork.run_dir) await this.#store.adoptFork?.(id, fork.id, fork.run_dir);
    this.enqueue(fork.id);
    return this.get(fork.id);
  }

  async resumeInterrupted(): Promise<string[]> {
    const ids = this.#store
      .list({ status: 'interrupted', limit: 500 })
      .runs.reverse()
      .map((r) => r.id);
    // Nobody asked: the server resumes them itself, so no one is named.
    for (const id of ids) await this.resume(id, undefined);
    return ids;
  }

  /** Nothing executes here: a drain only stops taking runs. */
  async drain(_graceMs?: number): Promise<void> {
    this.stopTakingRuns();
  }

  #readScope(sourceFile: string) {
    return serverReadScope(sourceFile, this.#options.allowDirs ?? []);
  }

  protected enqueue(id: string): void {
    scheduleCommitted(this.#store, this.#runs, id);
  }

  async #untilNot(id: string, statuses: readonly string[], ms: number): Promise<RunRecord> {
    const until = Date.now() + ms;
    for (;;) {
      const record = this.get(id);
      if (!statuses.includes(record.status) || Date.now() > until) return record;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
