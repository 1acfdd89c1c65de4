import { existsSync } from 'node:fs';
import path from 'node:path';
import { definedFields } from '../shared/defined-fields.js';
import type { Identity } from '../shared/identity.js';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import { AsideEvents } from './aside-events.js';
import { checkSubmission } from './check-submission.js';
import { recordOfflineAnswer } from './http-interviewer.js';
import { statusesFromLog, summaryFromLog } from './logged-run-summary.js';
import type { NodeStatus } from './node-statuses.js';
import { questionOfEndedRun, RecordedRuns } from './recorded-runs.js';
import { refuseRunAction } from './refuse-run-action.js';
import { RunEventHub } from './run-event-hub.js';
import { cancelLiveRun, type RunExecutionSettings, RunExecutor } from './run-executor.js';
import type { RunRecord, StoredQuestion } from './run-record.js';
import type { RunEvents, RunService, Submission } from './run-service.js';
import type { RunStore } from './run-store.js';
import type { RunSummary } from './run-summary.js';
import type { RunViewFacts } from './run-view.js';
import { allowNewWorkingDir, type WorkingDirPolicy } from './run-working-dir.js';

export interface LocalRunsOptions extends RunExecutionSettings {
  store: RunStore;
  maxConcurrentRuns: number;
}

/**
 * `attractor serve` with its file store: every run executes in this process. Owns the queue (at most
 * `maxConcurrentRuns` execute at once), cancel, resume, drain, and recovery after a crash. The store is
 * the source of truth; this object only holds what lives in this process.
 */
export class LocalRuns extends RecordedRuns implements RunService {
  readonly #options: LocalRunsOptions;
  readonly #executor: RunExecutor;
  readonly #queue: string[] = [];
  /** Event hubs of runs not live here, read back from their `events.jsonl`. */
  readonly #hubs = new Map<string, RunEventHub>();
  /** Summaries of runs not live here, read once from their events per version of their record. */
  readonly #summaries = new Map<string, { updatedAt: string; summary: RunSummary }>();
  readonly #aside: AsideEvents;

  constructor(options: LocalRunsOptions) {
    super(options.store, (file) => this.#executor.readScope(file));
    this.#options = options;
    this.#executor = new RunExecutor({
      store: options.store,
      allowTools: options.allowTools,
      allowDirs: options.allowDirs ?? [],
      ...definedFields({
        realRuns: options.realRuns,
        sandbox: options.sandbox,
        telemetry: options.telemetry,
        notifier: options.notifier,
      }),
      workingDirs: this.#workingDirs(),
      releaseAtGates: false,
      onStopped: (id) => {
        this.#aside.stopped(id);
        this.#pump();
      },
    });
    this.#aside = new AsideEvents({
      isLive: (id) => this.#executor.live(id) !== undefined,
      runDir: (id) => this.get(id).run_dir ?? this.#options.store.runDirFor(id),
      appended: (id, event) => this.#hubs.get(id)?.publish(event),
    });
    // Whatever was running when the previous server died is interrupted now; queued runs never started.
    for (const record of options.store.list({ limit: 500 }).runs.reverse()) {
      if (record.status === 'running') options.store.update(record.id, { status: 'interrupted' });
      if (record.status === 'queued') this.#queue.push(record.id);
    }
    this.#pump();
  }

  submit(submission: Submission): RunRecord {
    this.refuseWhileDraining();
    const graph = checkSubmission(submission, {
      allowTools: this.#options.allowTools,
      realRuns: this.#options.realRuns !== undefined,
      workingDirs: this.#workingDirs(),
      readScope: (file) => this.#executor.readScope(file),
    });
    return this.accept(submission, graph);
  }

  /** Append `event` to run `id`'s log from outside its execution (a notification given up). */
  async recordAside(id: string, event: PipelineEvent): Promise<void> {
    this.#aside.record(id, event);
  }

  /** The run's events: live, or read back from its `events.jsonl`. */
  hub(id: string): RunEvents {
    const live = this.#executor.live(id);
    if (live) return live.hub;
    const record = this.get(id);
    let hub = this.#hubs.get(id);
    if (!hub) {
      hub = new RunEventHub(record.run_dir);
      if (record.status !== 'queued') hub.finish(record.status);
      this.#hubs.set(id, hub);
    }
    return hub;
  }

  /** Every view reads the run directory, which is here: nothing to catch up on. */
  async catchUp(_id: string): Promise<void> {}

  async stored(_id: string, _what: { stage: string } | 'checkpoint'): Promise<unknown> {
    return undefined;
  }

  async storedFiles(_id: string, _stage: string): Promise<Record<string, string> | undefined> {
    return undefined;
  }

  nodeStatuses(id: string): Record<string, NodeStatus> {
    const live = this.#executor.live(id);
    if (live) return Object.fromEntries(live.statuses);
    return Object.fromEntries(statusesFromLog(this.get(id).run_dir));
  }

  viewFacts(record: RunRecord): RunViewFacts {
    return {
      eventCount: this.hub(record.id).eventCount,
      // Only a running run can be waiting for a person; the others' questions are not read.
      pendingQuestions: record.status === 'running' ? this.questions(record.id).length : 0,
      summary: this.#summary(record.id),
    };
  }

  /** Pending questions: those a live gate waits on, or those a crashed run left (answerable ahead of resume). */
  questions(id: string): StoredQuestion[] {
    this.get(id);
    const live = this.#executor.live(id);
    return this.#options.store
      .questions(id)
      .filter((q) => q.status === 'pending' && (!live || live.interviewer.isWaiting(q.id)));
  }

  async answer(id: string, questionId: string, text: string, by: Identity): Promise<void> {
    const record = this.get(id);
    const live = this.#executor.live(id);
    if (live) {
      live.interviewer.answer(questionId, text, by);
      return;
    }
    if (record.status !== 'interrupted') throw questionOfEndedRun(questionId, record.status);
    recordOfflineAnswer(this.#options.store, id, questionId, text, by);
  }

  /** Cancel a run: a live one is aborted at once (its processes killed) and this waits until it has stopped. */
  async cancel(id: string, by: Identity): Promise<RunRecord> {
    const record = this.get(id);
    refuseRunAction(id, 'cancel', { status: record.status, checkpointed: false });
    const live = this.#executor.live(id);
    if (live?.run) {
      cancelLiveRun(live, by);
      await live.settled;
      return this.get(id);
    }
    const queued = this.#queue.indexOf(id);
    if (queued >= 0) this.#queue.splice(queued, 1);
    const updated = this.#options.store.update(id, { status: 'cancelled', cancelled_by: by });
    this.#hubs.get(id)?.finish('cancelled');
    return updated;
  }

  async resume(id: string, by: Identity): Promise<RunRecord> {
    return this.#resume(id, by);
  }

  async fork(
    id: string,
    fromNode: string,
    set: Readonly<Record<string, string>>,
    by: Identity,
  ): Promise<RunRecord> {
    this.refuseWhileDraining();
    const fork = await this.records.fork(id, fromNode, set, by, (dir) =>
      allowNewWorkingDir(dir, this.#workingDirs()),
    );
    this.enqueue(fork.id);
    return this.get(fork.id);
  }

  /** Resume every run the previous server left interrupted (`--resume-interrupted`). */
  async resumeInterrupted(): Promise<string[]> {
    const ids = this.#options.store
      .list({ status: 'interrupted', limit: 500 })
      .runs.reverse()
      .map((r) => r.id);
    // Nobody asked: the server resumes them itself, so no one is named.
    for (const id of ids) this.#resume(id, undefined);
    return ids;
  }

  /**
   * SIGTERM: take no new runs; running ones pause at their next node (checkpointed). A run waiting at
   * a human gate has nothing to finish: it stops at once and is left `interrupted` with its question
   * still pending, exactly as after a crash, so a restarted server asks it again. Runs still going
   * after `graceMs` are left to the restart's recovery.
   */
  async drain(graceMs = 30_000): Promise<void> {
    this.stopTakingRuns();
    await this.#executor.drain(graceMs);
  }

  #resume(id: string, by: Identity | undefined): RunRecord {
    this.refuseWhileDraining();
    const record = this.get(id);
    // A failed run starts again at the node that failed, a cancelled one where it stopped, as `attractor resume` does.
    const checkpointed = existsSync(path.join(this.#options.store.runDirFor(id), 'checkpoint.json'));
    refuseRunAction(id, 'resume', { status: record.status, checkpointed });
    this.#hubs.delete(id);
    this.records.reopen(id, by);
    this.enqueue(id);
    return this.get(id);
  }

  /** Where the run is and what it cost, folded from its events (live, or read back once from the log). */
  #summary(id: string): RunSummary {
    const live = this.#executor.live(id);
    if (live) return live.summary;
    const record = this.get(id);
    const cached = this.#summaries.get(id);
    if (cached?.updatedAt === record.updated_at) return cached.summary;
    const summary = summaryFromLog(record.run_dir);
    this.#summaries.set(id, { updatedAt: record.updated_at, summary });
    return summary;
  }

  #workingDirs(): WorkingDirPolicy {
    return this.#options.workingDirs ?? { roots: [], perRun: false, who: 'this server' };
  }

  protected enqueue(id: string): void {
    this.#queue.push(id);
    this.#pump();
  }

  #pump(): void {
    const { maxConcurrentRuns } = this.#options;
    while (!this.draining && this.#executor.size < maxConcurrentRuns && this.#queue.length > 0) {
      const id = this.#queue.shift();
      if (id !== undefined) this.#executor.start(id);
    }
  }
}
