import { existsSync, renameSync } from 'node:fs';
import path from 'node:path';
import type { RealRunSettings } from '../actors/codergen/real-run-services.js';
import { createRealRunServices } from '../actors/codergen/real-run-services.js';
import { withAnswerChannel } from '../actors/interviewers/answer-channel-interviewer.js';
import { parseScenario } from '../actors/simulated/scenario.js';
import { loadPipeline } from '../compiler/compile.js';
import type { ReadScope } from '../compiler/files/read-scope.js';
import type { PipelineGraph } from '../compiler/ir.js';
import { hasErrors } from '../compiler/validate/validate.js';
import { parseVarsDeclaration, resolvePipelineVars } from '../compiler/vars/pipeline-vars.js';
import type { CompiledMachine } from '../machines/compile-machine.js';
import { readCheckpoint } from '../run/checkpoint.js';
import { checkpointVars, compileRun, resumePipeline, startPipeline } from '../run/engine.js';
import { forkRun } from '../run/fork-run.js';
import { newRunId } from '../run/run-directory.js';
import { createRunServices } from '../run/run-services.js';
import type { PipelineRun, RunOptions, RunResult } from '../run/run-types.js';
import { AttractorError } from '../shared/errors.js';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import type { SandboxSettings } from '../shared/sandbox/sandbox-settings.js';
import { ApiError } from './api-error.js';
import { gateDeadline, nextGateDeadline } from './gate-deadline.js';
import { HttpInterviewer, recordOfflineAnswer } from './http-interviewer.js';
import { applyNodeStatus, type NodeStatus } from './node-statuses.js';
import { readEventLines } from './read-event-lines.js';
import { type EventSink, RunEventHub } from './run-event-hub.js';
import {
  type RunRecord,
  type RunRequestOptions,
  type StoredQuestion,
  TERMINAL_STATUSES,
} from './run-record.js';
import type { ListRunsQuery, RunPage, RunStore } from './run-store.js';
import { emptyRunSummary, foldRunSummary, type RunSummary } from './run-summary.js';
import type { RunViewFacts } from './run-view.js';
import { namedWorkingDir, runWorkingDir, type WorkingDirPolicy } from './run-working-dir.js';
import { INLINE_SOURCE, serverReadScope } from './server-read-scope.js';

export interface RunManagerOptions {
  store: RunStore;
  maxConcurrentRuns: number;
  /** Tool commands (and manager loops' children) run only when the server was started with `--allow-tools`. */
  allowTools: boolean;
  /**
   * The only folders submitted pipelines may read named files from (`--allow-dir`; default none):
   * see `serverReadScope`.
   */
  allowDirs?: readonly string[];
  /**
   * Runs that call real models: where their agents work and the environment their keys come from (the
   * coding agent, router and budget are built as for `attractor run`); absent: only simulated runs.
   */
  realRuns?: Pick<RealRunSettings, 'workingDir' | 'env'>;
  /**
   * Where runs' tool commands and agents work, and which folders a submission's `working_dir` may name
   * (`runWorkingDir`); absent: the process's working directory, and a submission may name none.
   */
  workingDirs?: WorkingDirPolicy;
  /**
   * Runs execute on workers (the PostgreSQL store's queue), not in this process: `server` schedules,
   * streams, answers and cancels them; `worker` executes what the queue gives it (`execute`) and
   * releases a run waiting at a gate (checkpointed, `waiting`) until an answer schedules it again.
   */
  remote?: { role: 'server' | 'worker'; runs: RemoteRuns };
  /** How runs' commands are sandboxed (`serverSandbox`, decision 0341); absent: the engine's default. */
  sandbox?: SandboxSettings;
}

/** What runs executing elsewhere need: a queue, a cancel that reaches the executor, shared events. */
export interface RemoteRuns {
  /**
   * Have a worker execute the run now, or at `at` (a gate's timeout): a later schedule of the run
   * replaces an earlier one, except that one at `at` never delays one already due.
   */
  schedule(id: string, at?: Date): Promise<void>;
  requestCancel(id: string): Promise<void>;
  /** Cancel the run unless a worker has taken it (compare-and-set with `take`): false when one has. */
  cancelUntaken(id: string): Promise<boolean>;
  onCancelRequested(listener: (id: string) => void): void;
  eventHub(id: string): RunEvents;
  /** The run as the database has it now. */
  refresh(id: string): Promise<RunRecord | undefined>;
  /** Put the database's newest checkpoint of the run in `runDir`; false when it has none. */
  materialize(id: string, runDir: string): Promise<boolean>;
  /**
   * Become the run's owner (its attempt counter, compare-and-set): false when another worker took it
   * first. The owner's writes of the run are kept only while it stays the owner.
   */
  take(id: string): Promise<number | undefined>;
  /**
   * Hold the run's lease while this worker executes it at `attempt` (what `take` returned; see
   * `RunQueue.holdLease`); returns the release.
   */
  holdLease(id: string, attempt: number, onLost: (error: Error) => void): () => Promise<void>;
  /** The run's node statuses and summary, folded from its stored events as far as `catchUp` read them. */
  folded(id: string): { statuses: ReadonlyMap<string, NodeStatus>; summary: RunSummary };
  /** Fold in the run's events stored since the last read. */
  catchUp(id: string): Promise<void>;
  /** The run's newest checkpoint and a stage's `status.json`, as stored (its files are elsewhere). */
  checkpoint(id: string): Promise<Record<string, unknown> | undefined>;
  stage(id: string, stage: string): Promise<unknown>;
}

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
}

interface LiveRun {
  run?: PipelineRun;
  settled?: Promise<void>;
  /** Stopped by a drain while waiting at a gate: recorded as interrupted, not cancelled. */
  interrupting?: boolean;
  hub: RunEventHub;
  interviewer: HttpInterviewer;
  statuses: Map<string, NodeStatus>;
  summary: RunSummary;
  /** A worker's run that reached a gate: it stops, checkpointed, and waits for an answer as `waiting`. */
  releasing?: boolean;
}

const TOOL_HANDLERS = new Set(['tool', 'stack.manager_loop']);

/**
 * Owns every run of the server: the queue (at most `maxConcurrentRuns` execute at once), the live
 * runs' event hubs and interviewers, cancel, resume, drain, and recovery after a crash. The store
 * is the source of truth; this object only holds what lives in this process.
 */
export class RunManager {
  readonly #options: RunManagerOptions;
  readonly #store: RunStore;
  readonly #queue: string[] = [];
  readonly #live = new Map<string, LiveRun>();
  readonly #hubs = new Map<string, RunEventHub>();
  readonly #settled = new Set<Promise<unknown>>();
  /** A worker's runs between its take and their start: a cancel heard then stops the start. */
  readonly #starting = new Map<string, { cancelled: boolean }>();
  /**
   * A worker's runs an execution here is deciding on, taking or running, until its run settles: the
   * next execution of the run waits for that, then decides on what the database says by then.
   */
  readonly #occupied = new Map<string, Promise<void>>();
  /** Summaries of runs not live here, read once from their events per version of their record. */
  readonly #summaries = new Map<string, { updatedAt: string; summary: RunSummary }>();
  #draining = false;

  constructor(options: RunManagerOptions) {
    this.#options = options;
    this.#store = options.store;
    const remote = options.remote;
    if (remote?.role === 'worker') {
      remote.runs.onCancelRequested((id) => {
        const run = this.#live.get(id)?.run;
        if (run) run.cancel();
        else {
          const starting = this.#starting.get(id);
          if (starting) starting.cancelled = true;
        }
      });
    }
    // Other servers and workers share the store: a run marked running may be running on one of them.
    if (remote) return;
    // Whatever was running when the previous server died is interrupted now; queued runs never started.
    for (const record of this.#store.list({ limit: 500 }).runs.reverse()) {
      if (record.status === 'running') this.#store.update(record.id, { status: 'interrupted' });
      if (record.status === 'queued') this.#queue.push(record.id);
    }
    this.#pump();
  }

  /** Resolves once what the store was told (of run `id`, when given) is durable (the store writes behind). */
  async persisted(id?: string): Promise<void> {
    await this.#store.flush?.(id);
  }

  get draining(): boolean {
    return this.#draining;
  }

  submit(submission: Submission): RunRecord {
    if (this.#draining)
      throw new ApiError(503, 'DRAINING', 'the server is shutting down and takes no new runs.');
    const graph = this.#check(submission);
    const now = new Date().toISOString();
    const record: RunRecord = {
      id: newRunId(),
      name: graph.name,
      // Compiled with the submission's goal and values: its parameters' values stand in for `$name`.
      goal: graph.attrs.goal ?? '',
      status: 'queued',
      created_at: now,
      updated_at: now,
      source_file: submission.sourceFile,
      options: submission.options,
    };
    this.#store.create(record, submission.source);
    this.#enqueue(record.id);
    return this.get(record.id);
  }

  get(id: string): RunRecord {
    const record = this.#store.get(id);
    if (!record) throw new ApiError(404, 'RUN_NOT_FOUND', `no pipeline run ${id}.`);
    return record;
  }

  list(query: ListRunsQuery): RunPage {
    return this.#store.list(query);
  }

  /** The pipeline as run `id` runs it: compiled with its goal and its parameters' values. */
  graph(id: string): PipelineGraph {
    const record = this.get(id);
    const { goal, vars } = record.options;
    return loadPipeline(this.#store.source(id), {
      file: record.source_file,
      readScope: this.#readScope(record.source_file),
      ...(goal !== undefined ? { goal } : {}),
      ...(vars !== undefined ? { vars } : {}),
    }).graph;
  }

  /** The run's events: live, or read back from its `events.jsonl` (or the database's, for remote runs). */
  hub(id: string): RunEvents {
    const remote = this.#options.remote;
    if (remote?.role === 'server') {
      this.get(id);
      return remote.runs.eventHub(id);
    }
    const live = this.#live.get(id);
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

  /**
   * Read what a view of run `id` shows from wherever it is kept: for a server whose runs execute on
   * workers, the events stored since the last view (their run directories are on other machines).
   */
  async catchUp(id: string): Promise<void> {
    const remote = this.#options.remote;
    if (remote?.role === 'server' && this.#store.get(id)) await remote.runs.catchUp(id);
  }

  /**
   * What the database holds of run `id`'s files, for a server whose runs execute on workers (their run
   * directories are on other machines): its newest checkpoint, or a stage's `status.json`. Undefined
   * elsewhere, and where nothing is stored: the run directory is read.
   */
  async stored(id: string, what: { stage: string } | 'checkpoint'): Promise<unknown> {
    const remote = this.#options.remote;
    if (remote?.role !== 'server') return undefined;
    this.get(id);
    return what === 'checkpoint' ? remote.runs.checkpoint(id) : remote.runs.stage(id, what.stage);
  }

  nodeStatuses(id: string): Record<string, NodeStatus> {
    const remote = this.#options.remote;
    if (remote?.role === 'server') {
      this.get(id);
      return Object.fromEntries(remote.runs.folded(id).statuses);
    }
    const live = this.#live.get(id);
    if (live) return Object.fromEntries(live.statuses);
    const record = this.get(id);
    const statuses = new Map<string, NodeStatus>();
    if (record.run_dir && existsSync(record.run_dir)) {
      readEventLines(path.join(record.run_dir, 'events.jsonl'), 0, (_id, event) =>
        applyNodeStatus(statuses, event),
      );
    }
    return Object.fromEntries(statuses);
  }

  /** Where the run is and what it cost, folded from its events (live, or read back once from the log). */
  summary(id: string): RunSummary {
    const remote = this.#options.remote;
    if (remote?.role === 'server') return remote.runs.folded(id).summary;
    const live = this.#live.get(id);
    if (live) return live.summary;
    const record = this.get(id);
    const cached = this.#summaries.get(id);
    if (cached?.updatedAt === record.updated_at) return cached.summary;
    const summary = summaryFromLog(record.run_dir);
    this.#summaries.set(id, { updatedAt: record.updated_at, summary });
    return summary;
  }

  /** What a view of the run reads besides its record (`runView`). */
  viewFacts(record: RunRecord): RunViewFacts {
    return {
      eventCount: this.hub(record.id).eventCount,
      // Only a running run can be waiting for a person; the others' questions are not read.
      pendingQuestions: record.status === 'running' ? this.questions(record.id).length : 0,
      summary: this.summary(record.id),
    };
  }

  /** Pending questions: those a live gate waits on, or those a crashed run left (answerable ahead of resume). */
  questions(id: string): StoredQuestion[] {
    this.get(id);
    const live = this.#live.get(id);
    return this.#store
      .questions(id)
      .filter((q) => q.status === 'pending' && (!live || live.interviewer.isWaiting(q.id)));
  }

  answer(id: string, questionId: string, text: string): void {
    const record = this.get(id);
    const live = this.#live.get(id);
    if (live) {
      live.interviewer.answer(questionId, text);
      return;
    }
    if (this.#options.remote && ['waiting', 'running', 'queued'].includes(record.status)) {
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
      // while the run still shows running: its worker may be releasing it right now.
      recordOfflineAnswer(this.#store, id, questionId, text);
      if (record.status === 'waiting') this.#store.update(id, { status: 'queued' });
      this.#enqueue(id);
      return;
    }
    if (record.status !== 'interrupted') {
      throw new ApiError(
        409,
        'QUESTION_NOT_PENDING',
        `question ${questionId} is not pending (the run is ${record.status}).`,
      );
    }
    recordOfflineAnswer(this.#store, id, questionId, text);
  }

  /** Cancel a run: a live one is aborted at once (its processes killed) and this waits until it has stopped. */
  async cancel(id: string): Promise<RunRecord> {
    const record = this.get(id);
    if (TERMINAL_STATUSES.has(record.status)) {
      throw new ApiError(409, 'RUN_FINISHED', `run ${id} already ended (${record.status}).`);
    }
    const live = this.#live.get(id);
    if (live?.run) {
      live.run.cancel();
      await live.settled;
      return this.get(id);
    }
    const remote = this.#options.remote;
    if (remote) {
      // Not taken by a worker: cancelled before any can. Taken (perhaps this very moment): its worker
      // hears the cancel, whether it runs the run already or is about to start it.
      if (record.status !== 'running' && (await remote.runs.cancelUntaken(id))) return this.get(id);
      await remote.runs.requestCancel(id);
      return this.#untilNot(id, ['queued', 'running'], 10_000);
    }
    const queued = this.#queue.indexOf(id);
    if (queued >= 0) this.#queue.splice(queued, 1);
    const updated = this.#store.update(id, { status: 'cancelled' });
    this.#hubs.get(id)?.finish('cancelled');
    return updated;
  }

  resume(id: string): RunRecord {
    if (this.#draining)
      throw new ApiError(503, 'DRAINING', 'the server is shutting down and takes no new runs.');
    const record = this.get(id);
    // A failed run with a checkpoint starts again at the node that failed, as `attractor resume` does.
    const failedWithCheckpoint =
      record.status === 'failed' && existsSync(path.join(this.#store.runDirFor(id), 'checkpoint.json'));
    if (record.status !== 'interrupted' && record.status !== 'paused' && !failedWithCheckpoint) {
      throw new ApiError(
        409,
        'NOT_RESUMABLE',
        `run ${id} is ${record.status}; only interrupted, paused or failed runs that reached a checkpoint resume.`,
      );
    }
    this.#hubs.delete(id);
    // The previous attempt's ending is not this one's: a resumed run reports its own when it ends.
    this.#store.update(id, {
      status: 'queued',
      quality: undefined,
      failure: undefined,
      stopped_at: undefined,
    });
    this.#enqueue(id);
    return this.get(id);
  }

  /**
   * A new run standing where run `id` stood as it entered `fromNode` (`forkRun`), queued like a resume:
   * 409 before the run has a run directory, 422 for a node the pipeline lacks or the run never reached.
   */
  fork(id: string, fromNode: string, set: Readonly<Record<string, string>> = {}): RunRecord {
    if (this.#draining)
      throw new ApiError(503, 'DRAINING', 'the server is shutting down and takes no new runs.');
    const record = this.get(id);
    if (!record.run_dir)
      throw new ApiError(
        409,
        'RUN_NOT_STARTED',
        `run ${id} is ${record.status} and has no state to fork yet.`,
      );
    const source = this.#store.source(id);
    const forkId = newRunId();
    try {
      forkRun({
        from: record.run_dir,
        node: fromNode,
        graph: this.graph(id),
        source,
        ...(record.source_file !== INLINE_SOURCE ? { file: record.source_file } : {}),
        set,
        runDir: this.#store.runDirFor(forkId),
        runId: forkId,
      });
    } catch (error) {
      if (AttractorError.isInstance(error) && error.code.startsWith('FORK_'))
        throw new ApiError(422, error.code, error.describe());
      throw error;
    }
    const now = new Date().toISOString();
    this.#store.create(
      {
        id: forkId,
        name: record.name,
        goal: record.goal,
        status: 'queued',
        created_at: now,
        updated_at: now,
        source_file: record.source_file,
        options: record.options,
        run_dir: this.#store.runDirFor(forkId),
      },
      source,
    );
    this.#enqueue(forkId);
    return this.get(forkId);
  }

  /**
   * A worker's part: execute run `id` because the queue says so. A run already over, or waiting with no
   * answer yet, needs nothing; one another process still executes is left to a retry of the job (it
   * throws `RUN_BUSY`). Resolves when this process stops executing it (ended, paused, or released at a gate).
   */
  async execute(id: string, options: { takeover?: boolean } = {}): Promise<void> {
    const remote = this.#options.remote;
    if (remote?.role !== 'worker')
      throw new AttractorError('NOT_A_WORKER', 'only a worker executes queued runs.');
    // Two jobs of one run can reach this process at once (an answer's, and the one its released attempt
    // schedules): taken twice, the later take would start a second run in the same folder.
    for (let busy = this.#occupied.get(id); busy; busy = this.#occupied.get(id)) await busy;
    let vacate = (): void => {};
    const occupied = new Promise<void>((resolve) => {
      vacate = () => {
        if (this.#occupied.get(id) === occupied) this.#occupied.delete(id);
        resolve();
      };
    });
    this.#occupied.set(id, occupied);
    try {
      await this.#decideAndRun(id, options, vacate);
    } finally {
      vacate();
    }
  }

  async #decideAndRun(id: string, options: { takeover?: boolean }, vacate: () => void): Promise<void> {
    const remote = this.#options.remote;
    if (!remote) return;
    const record = await remote.runs.refresh(id);
    if (!record || TERMINAL_STATUSES.has(record.status) || record.status === 'paused') return;
    // A takeover is the run's lease firing: the worker executing it stopped renewing it (it died).
    if (record.status === 'running' && !options.takeover)
      throw new AttractorError('RUN_BUSY', `run ${id} is executing elsewhere; the queue tries again.`);
    if (record.status === 'waiting' && !this.#store.questions(id).some((q) => q.status === 'answered')) {
      // Its gate's timeout: due (the gate takes its default), or not yet (this clock is behind the queue's).
      const deadline = nextGateDeadline(this.#store.questions(id));
      if (deadline === undefined) return;
      if (deadline > Date.now()) return remote.runs.schedule(id, new Date(deadline));
    }
    const starting = { cancelled: false };
    this.#starting.set(id, starting);
    try {
      await this.#takeAndRun(id, starting, options, vacate);
    } finally {
      // A later attempt of the run may have started meanwhile: its entry is its own.
      if (this.#starting.get(id) === starting) this.#starting.delete(id);
    }
  }

  async #takeAndRun(
    id: string,
    starting: { cancelled: boolean },
    options: { takeover?: boolean },
    vacate: () => void,
  ): Promise<void> {
    const remote = this.#options.remote;
    if (!remote) return;
    // Reached by two workers at once (a takeover and a job a dead worker had held): one executes it. A
    // run cancelled meanwhile is taken by neither.
    const attempt = await remote.runs.take(id);
    if (attempt === undefined) {
      const now = await remote.runs.refresh(id);
      if (options.takeover || (now && TERMINAL_STATUSES.has(now.status))) return;
      throw new AttractorError('RUN_BUSY', `run ${id} was taken by another worker; the queue tries again.`);
    }
    // This attempt's run, once started: a later attempt of the same run (a gate's continuation taken
    // here while this one still lets go) is not this lease's to stop.
    let ours: LiveRun | undefined;
    let lost = false;
    const release = remote.runs.holdLease(id, attempt, () => {
      // Another worker may take the run over now (or has): it must not go on here too.
      lost = true;
      // Not started yet, or stopped already (a later attempt may be live here now): nothing to stop.
      if (!ours || this.#live.get(id) !== ours) return;
      ours.interrupting = true;
      ours.run?.cancel();
    });
    try {
      await remote.runs.materialize(id, this.#store.runDirFor(id));
      // Cancelled since the take (the server found the run taken and told its worker): it never starts.
      if (starting.cancelled) {
        this.#store.update(id, { status: 'cancelled' });
        await this.#store.flush?.();
        return;
      }
      if (lost) return;
      this.#start(id);
      ours = this.#live.get(id);
      await ours?.settled;
      // Letting go (committing, scheduling a released gate, dropping the lease) need not hold up the next
      // execution of the run here: a continuation may start meanwhile.
      vacate();
      await this.#store.flush?.();
      if (this.#store.get(id)?.status === 'waiting') await this.#scheduleReleased(id);
    } finally {
      await release();
    }
  }

  #enqueue(id: string): void {
    const remote = this.#options.remote;
    if (!remote) {
      this.#queue.push(id);
      this.#pump();
      return;
    }
    // After the record is committed: a worker taking the job at once must find it.
    void (this.#store.flush?.() ?? Promise.resolve())
      .then(() => remote.runs.schedule(id))
      .catch((error: unknown) => {
        this.#store.update(id, {
          status: 'failed',
          failure: {
            reason: `it could not be scheduled: ${error instanceof Error ? error.message : String(error)}`,
          },
        });
      });
  }

  async #untilNot(id: string, statuses: readonly string[], ms: number): Promise<RunRecord> {
    const until = Date.now() + ms;
    for (;;) {
      const record = this.get(id);
      if (!statuses.includes(record.status) || Date.now() > until) return record;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Resume every run the previous server left interrupted (`--resume-interrupted`). */
  resumeInterrupted(): string[] {
    const ids = this.#store
      .list({ status: 'interrupted', limit: 500 })
      .runs.reverse()
      .map((r) => r.id);
    for (const id of ids) this.resume(id);
    return ids;
  }

  /**
   * SIGTERM: take no new runs; running ones pause at their next node (checkpointed). A run waiting at
   * a human gate has nothing to finish: it stops at once and is left `interrupted` with its question
   * still pending, exactly as after a crash, so a restarted server asks it again. Runs still going
   * after `graceMs` are left to the restart's recovery.
   */
  async drain(graceMs = 30_000): Promise<void> {
    this.#draining = true;
    for (const live of this.#live.values()) {
      if (live.interviewer.waiting > 0) {
        live.interrupting = true;
        live.run?.cancel();
      } else {
        live.run?.pause();
      }
    }
    const grace = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([Promise.allSettled([...this.#settled]), grace]);
  }

  #check(submission: Submission): PipelineGraph {
    let loaded: ReturnType<typeof loadPipeline>;
    try {
      loaded = loadPipeline(submission.source, {
        file: submission.sourceFile,
        readScope: this.#readScope(submission.sourceFile),
        ...(submission.options.goal !== undefined ? { goal: submission.options.goal } : {}),
        ...(submission.options.vars !== undefined ? { vars: submission.options.vars } : {}),
      });
      // A missing or unknown parameter is the submitter's to fix, before the run is queued.
      resolvePipelineVars(parseVarsDeclaration(loaded.graph.attrs.vars), submission.options.vars ?? {});
    } catch (error) {
      if (!AttractorError.isInstance(error)) throw error;
      throw new ApiError(
        400,
        error.code,
        error.describe(),
        error.location ? { location: error.location } : undefined,
      );
    }
    if (hasErrors(loaded.diagnostics)) {
      throw new ApiError(400, 'INVALID_PIPELINE', 'the pipeline has validation errors.', {
        diagnostics: loaded.diagnostics,
      });
    }
    if (submission.options.scenario !== undefined) parseScenarioOrReject(submission.options.scenario);
    // A server whose runs execute on workers cannot know their folders: each worker checks its own.
    if (submission.options.working_dir !== undefined && this.#options.remote?.role !== 'server') {
      try {
        namedWorkingDir(submission.options.working_dir, this.#workingDirs());
      } catch (error) {
        if (!AttractorError.isInstance(error)) throw error;
        throw new ApiError(error.code === 'WORKDIR_NOT_ALLOWED' ? 403 : 400, error.code, error.describe());
      }
    }
    const runsTools = loaded.graph.nodes.filter((n) => TOOL_HANDLERS.has(n.handler)).map((n) => n.id);
    if (!submission.options.dry_run && runsTools.length > 0 && !this.#options.allowTools) {
      throw new ApiError(
        403,
        'TOOLS_NOT_ALLOWED',
        `this pipeline runs commands (${runsTools.join(', ')}); the server runs tool commands of submitted pipelines only when started with --allow-tools (or submit it with "dry_run": true).`,
      );
    }
    const simulated = submission.options.dry_run || submission.options.scenario !== undefined;
    if (!simulated && !this.#options.realRuns) {
      throw new ApiError(
        422,
        'NO_BACKEND',
        'this server has no LLM backend configured: submit with "dry_run": true or a "scenario".',
      );
    }
    return loaded.graph;
  }

  #workingDirs(): WorkingDirPolicy {
    return this.#options.workingDirs ?? { roots: [], perRun: false, who: 'this server' };
  }

  #readScope(sourceFile: string): ReadScope {
    return serverReadScope(sourceFile, this.#options.allowDirs ?? []);
  }

  #pump(): void {
    while (!this.#draining && this.#live.size < this.#options.maxConcurrentRuns && this.#queue.length > 0) {
      const id = this.#queue.shift() as string;
      this.#start(id);
    }
  }

  #start(id: string): void {
    const record = this.get(id);
    const releaseAtGates = this.#options.remote?.role === 'worker';
    const interviewer = new HttpInterviewer(
      id,
      this.#store,
      () =>
        // After the question is recorded and the gate waits on it (the same turn): nothing holds a worker.
        queueMicrotask(() => {
          if (!releaseAtGates || interviewer.waiting === 0 || live.releasing) return;
          live.releasing = true;
          live.run?.cancel();
        }),
      { released: releaseAtGates },
    );
    const live: LiveRun = {
      hub: new RunEventHub(record.run_dir),
      interviewer,
      statuses: new Map(),
      summary: emptyRunSummary(),
    };
    this.#live.set(id, live);
    const onEvent = (event: PipelineEvent): void => {
      applyNodeStatus(live.statuses, event);
      live.summary = foldRunSummary(live.summary, event);
      live.hub.publish(event);
    };
    let run: PipelineRun;
    try {
      const runDir = this.#store.runDirFor(id);
      // Before anything of the pipeline runs: a folder this process may not use fails the run here.
      const workingDir = runWorkingDir(record.options.working_dir, this.#workingDirs(), runDir);
      const checkpointPath = path.join(runDir, 'checkpoint.json');
      const resumed = existsSync(checkpointPath) ? readCheckpoint(checkpointPath) : undefined;
      const source = this.#store.source(id);
      // Compiled once, for the run and its services (a resume with the values it started with).
      const compiled = compileRun({
        source,
        file: record.source_file,
        readScope: this.#readScope(record.source_file),
        ...(record.options.goal !== undefined ? { goal: record.options.goal } : {}),
        ...(record.options.model !== undefined ? { model: record.options.model } : {}),
        ...(resumed
          ? { vars: checkpointVars(resumed) }
          : record.options.vars !== undefined
            ? { vars: record.options.vars }
            : {}),
      });
      const options = this.#runOptions(record, compiled, interviewer, onEvent, {
        initialUsage: resumed?.usage,
        workingDir,
      });
      if (resumed) {
        // A resumed run goes on from what its earlier attempts spent and when it first started.
        live.summary = summaryFromLog(runDir);
        const { runDir: _fresh, ...resumeOptions } = options;
        run = resumePipeline({ ...resumeOptions, from: runDir, compiled });
      } else {
        // Killed before its first checkpoint: nothing ran that a resume could keep; start over beside it.
        if (existsSync(runDir)) renameSync(runDir, `${runDir}.abandoned-${Date.now()}`);
        run = startPipeline({
          ...options,
          runId: id,
          source,
          file: record.source_file,
          compiled,
          ...(record.options.vars !== undefined ? { vars: record.options.vars } : {}),
        });
      }
    } catch (error) {
      if (this.#live.get(id) === live) this.#live.delete(id);
      const failure = AttractorError.isInstance(error)
        ? { reason: error.describe(), code: error.code }
        : { reason: String(error) };
      this.#store.update(id, { status: 'failed', failure });
      live.hub.finish('failed');
      return;
    }
    live.run = run;
    // A continuation (after a gate, a takeover) is not the attempt that stopped: no ending of that one shows.
    this.#store.update(id, {
      status: 'running',
      run_dir: run.runDir,
      quality: undefined,
      failure: undefined,
      stopped_at: undefined,
    });
    const settled = run.result.then(
      (result) => this.#finish(id, result),
      (error: unknown) => this.#finish(id, undefined, error),
    );
    live.settled = settled;
    this.#settled.add(settled);
    void settled.finally(() => this.#settled.delete(settled));
  }

  #finish(id: string, result: RunResult | undefined, error?: unknown): void {
    const live = this.#live.get(id);
    this.#live.delete(id);
    const status = live?.releasing
      ? 'waiting'
      : live?.interrupting
        ? 'interrupted'
        : (result?.status ?? 'failed');
    // A run released at a gate has not ended: the cancel that stopped it here is no failure of it.
    const ended = status !== 'waiting';
    this.#store.update(id, {
      status,
      ...(result && ended ? { quality: result.quality } : {}),
      ...(result?.stoppedAt && ended ? { stopped_at: result.stoppedAt } : {}),
      ...(!ended
        ? {}
        : result?.failure
          ? { failure: result.failure }
          : error !== undefined
            ? { failure: { reason: error instanceof Error ? error.message : String(error) } }
            : {}),
    });
    if (TERMINAL_STATUSES.has(status)) this.#store.saveQuestions(id, []);
    live?.hub.finish(status);
    this.#pump();
  }

  /**
   * A run released at a gate continues when it is answered or when its gate times out. Decided on the
   * database's questions once the release is committed: an answer given meanwhile (its continuation
   * found the run still running) continues it now; else a delayed job waits for the gate's deadline,
   * which an answer's schedule replaces.
   */
  async #scheduleReleased(id: string): Promise<void> {
    const remote = this.#options.remote;
    if (!remote) return;
    try {
      const record = await remote.runs.refresh(id);
      // Another execution here took the run meanwhile (its answer's job): it is no longer waiting,
      // whatever this read found.
      if (record?.status !== 'waiting' || this.#occupied.has(id)) return;
      const questions = this.#store.questions(id);
      if (questions.some((q) => q.status === 'answered')) {
        this.#store.update(id, { status: 'queued' });
        this.#enqueue(id);
        return;
      }
      const deadline = nextGateDeadline(questions);
      if (deadline !== undefined) await remote.runs.schedule(id, new Date(deadline));
    } catch (error) {
      this.#store.update(id, {
        status: 'failed',
        failure: {
          reason: `its gate's timeout could not be scheduled: ${error instanceof Error ? error.message : String(error)}`,
        },
      });
    }
  }

  /** The run's settings and services, built as `attractor run` builds them (`createRunServices`). */
  #runOptions(
    record: RunRecord,
    compiled: CompiledMachine,
    interviewer: HttpInterviewer,
    onEvent: (e: PipelineEvent) => void,
    { initialUsage, workingDir }: { initialUsage: unknown; workingDir: string | undefined },
  ): RunOptions {
    const { options } = record;
    const scenario = options.scenario !== undefined ? parseScenarioOrReject(options.scenario) : undefined;
    const runDir = this.#store.runDirFor(record.id);
    const { realRuns } = this.#options;
    const { real: _real, ...services } = createRunServices({
      graph: compiled.graph,
      ...(options.dry_run ? { dryRun: true } : {}),
      ...(scenario ? { scenario } : {}),
      ...(options.auto_approve ? { autoApprove: true } : {}),
      // Published in the run directory too, so `attractor attach <run dir>` (or a script) can answer;
      // the first answer, HTTP or file, wins and withdraws the other.
      interviewer: withAnswerChannel(interviewer, () => runDir, { answeredBy: 'http' }),
      ...(realRuns
        ? {
            real: {
              createRealRunServices,
              settings: {
                ...realRuns,
                ...(workingDir ? { workingDir } : {}),
                // Every run's folder is `<runs>/<id>/run`: none of them is an agent's change.
                recordsDirs: [path.dirname(path.dirname(runDir))],
                ...(options.model ? { model: options.model } : {}),
                ...(options.max_cost_usd !== undefined ? { maxCostUsd: options.max_cost_usd } : {}),
                ...(initialUsage !== undefined ? { initialUsage } : {}),
              },
            },
          }
        : {}),
    });
    return {
      ...services,
      // Tool commands of simulated runs too: they run for real.
      ...(workingDir ? { workingDir } : {}),
      runDir,
      readScope: this.#readScope(record.source_file),
      ...(options.goal !== undefined ? { goal: options.goal } : {}),
      ...(options.model !== undefined ? { model: options.model } : {}),
      manifestOptions: { dry_run: options.dry_run, server_run_id: record.id },
      ...(this.#options.sandbox ? { sandbox: this.#options.sandbox } : {}),
      ...(this.#store.recordSink ? { recordSink: this.#store.recordSink(record.id) } : {}),
      onEvent,
    };
  }
}

function summaryFromLog(runDir: string | undefined): RunSummary {
  let summary = emptyRunSummary();
  if (runDir) {
    readEventLines(path.join(runDir, 'events.jsonl'), 0, (_id, event) => {
      summary = foldRunSummary(summary, event);
    });
  }
  return summary;
}

function parseScenarioOrReject(text: string) {
  try {
    return parseScenario(text, '<scenario>');
  } catch (error) {
    if (!AttractorError.isInstance(error)) throw error;
    throw new ApiError(400, error.code, error.describe());
  }
}
