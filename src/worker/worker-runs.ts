import { nextGateDeadline } from '../server/gate-deadline.js';
import { scheduleCommitted, type WorkerSideRuns } from '../server/postgres/remote-runs.js';
import {
  cancelLiveRun,
  type LiveRun,
  type RunExecutionSettings,
  RunExecutor,
} from '../server/run-executor.js';
import { TERMINAL_STATUSES } from '../server/run-record.js';
import type { RunStore } from '../server/run-store.js';
import { definedFields } from '../shared/defined-fields.js';
import { AttractorError } from '../shared/errors.js';
import type { Identity } from '../shared/identity.js';
import { stoppedEvent, type WorkerRunEvent } from './worker-run-event.js';

export interface WorkerRunsOptions extends RunExecutionSettings {
  store: RunStore;
  runs: WorkerSideRuns;
  /** Push runs' snapshots to this git remote (`--git-remote`) rather than the store (decision 0331). */
  gitRemote?: string;
  /** Told when this worker takes a run, releases it at a gate, or the run stops here. */
  onRunEvent?: (event: WorkerRunEvent) => void;
}

/** A run between its take and its start: a cancel heard then stops the start. */
interface Starting {
  cancelled: boolean;
  /** Who cancelled it, when they are known. */
  cancelledBy?: Identity;
}

/**
 * `attractor worker`'s runs: executes what the queue gives it (`execute`), owning each run while it runs
 * (its attempt, its lease), and releases a run waiting at a gate (checkpointed, `waiting`) until an
 * answer, or the gate's timeout, schedules it again.
 */
export class WorkerRuns {
  readonly #store: RunStore;
  readonly #runs: WorkerSideRuns;
  readonly #executor: RunExecutor;
  readonly #onRunEvent: (event: WorkerRunEvent) => void;
  /** Runs between their take and their start: a cancel heard then stops the start. */
  readonly #starting = new Map<string, Starting>();
  /**
   * Runs an execution here is deciding on, taking or running, until its run settles: the next
   * execution of the run waits for that, then decides on what the database says by then.
   */
  readonly #occupied = new Map<string, Promise<void>>();

  constructor(options: WorkerRunsOptions) {
    this.#store = options.store;
    this.#runs = options.runs;
    this.#onRunEvent = options.onRunEvent ?? (() => {});
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
      workingDirs: options.workingDirs ?? { roots: [], perRun: true, who: 'this worker' },
      releaseAtGates: true,
      snapshots: options.gitRemote ? { remote: options.gitRemote } : {},
    });
    options.runs.onCancelRequested((id, by) => {
      const live = this.#executor.live(id);
      if (live?.run) cancelLiveRun(live, by);
      else {
        const starting = this.#starting.get(id);
        if (starting) {
          starting.cancelled = true;
          if (by !== undefined) starting.cancelledBy = by;
        }
      }
    });
  }

  /**
   * Execute run `id` because the queue says so. A run already over, or waiting with no answer yet, needs
   * nothing; one another process still executes is left to a retry of the job (it throws `RUN_BUSY`).
   * Resolves when this process stops executing it (ended, paused, or released at a gate).
   */
  async execute(id: string, options: { takeover?: boolean } = {}): Promise<void> {
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

  /** Runs executing here pause at their next node (see `RunExecutor.drain`); the caller stops the queue. */
  async drain(graceMs = 30_000): Promise<void> {
    await this.#executor.drain(graceMs);
  }

  async #decideAndRun(id: string, options: { takeover?: boolean }, vacate: () => void): Promise<void> {
    const record = await this.#runs.refresh(id);
    if (!record || TERMINAL_STATUSES.has(record.status) || record.status === 'paused') return;
    // A takeover is the run's lease firing: the worker executing it stopped renewing it (it died).
    if (record.status === 'running' && !options.takeover)
      throw new AttractorError('RUN_BUSY', `run ${id} is executing elsewhere; the queue tries again.`);
    if (record.status === 'waiting' && !this.#store.questions(id).some((q) => q.status === 'answered')) {
      // Its gate's timeout: due (the gate takes its default), or not yet (this clock is behind the queue's).
      const deadline = nextGateDeadline(this.#store.questions(id));
      if (deadline === undefined) return;
      if (deadline > Date.now()) return this.#runs.schedule(id, new Date(deadline));
    }
    const starting: Starting = { cancelled: false };
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
    starting: Starting,
    options: { takeover?: boolean },
    vacate: () => void,
  ): Promise<void> {
    // Reached by two workers at once (a takeover and a job a dead worker had held): one executes it. A
    // run cancelled meanwhile is taken by neither.
    const attempt = await this.#runs.take(id);
    if (attempt === undefined) {
      const now = await this.#runs.refresh(id);
      if (options.takeover || (now && TERMINAL_STATUSES.has(now.status))) return;
      throw new AttractorError('RUN_BUSY', `run ${id} was taken by another worker; the queue tries again.`);
    }
    this.#onRunEvent({ event: 'took', run_id: id, attempt });
    // This attempt's run, once started: a later attempt of the same run (a gate's continuation taken
    // here while this one still lets go) is not this lease's to stop.
    let ours: LiveRun | undefined;
    let lost = false;
    const release = this.#runs.holdLease(id, attempt, () => {
      // Another worker may take the run over now (or has): it must not go on here too.
      lost = true;
      // Not started yet, or stopped already (a later attempt may be live here now): nothing to stop.
      if (!ours || this.#executor.live(id) !== ours) return;
      ours.interrupting = true;
      ours.run?.cancel();
    });
    try {
      await this.#runs.materialize(id, this.#store.runDirFor(id));
      // Cancelled since the take (the server found the run taken and told its worker), or before it while
      // the run's last worker was dead (the request was kept on its row): it never starts.
      const cancel = starting.cancelled ? { by: starting.cancelledBy } : await this.#runs.cancelRequested(id);
      if (cancel) {
        this.#store.update(id, {
          status: 'cancelled',
          ...definedFields({ cancelled_by: cancel.by }),
        });
        await this.#store.flush?.();
        this.#onRunEvent(stoppedEvent(id, this.#store.get(id)));
        return;
      }
      if (lost) return;
      ours = this.#executor.start(id);
      await ours?.settled;
      this.#onRunEvent(stoppedEvent(id, this.#store.get(id)));
      // Letting go (committing, scheduling a released gate, dropping the lease) need not hold up the next
      // execution of the run here: a continuation may start meanwhile.
      vacate();
      await this.#store.flush?.();
      if (this.#store.get(id)?.status === 'waiting') await this.#scheduleReleased(id);
    } finally {
      await release();
    }
  }

  /**
   * A run released at a gate continues when it is answered or when its gate times out. Decided on the
   * database's questions once the release is committed: an answer given meanwhile (its continuation
   * found the run still running) continues it now; else a delayed job waits for the gate's deadline,
   * which an answer's schedule replaces.
   */
  async #scheduleReleased(id: string): Promise<void> {
    try {
      const record = await this.#runs.refresh(id);
      // Another execution here took the run meanwhile (its answer's job): it is no longer waiting,
      // whatever this read found.
      if (record?.status !== 'waiting' || this.#occupied.has(id)) return;
      const questions = this.#store.questions(id);
      if (questions.some((q) => q.status === 'answered')) {
        this.#store.update(id, { status: 'queued' });
        this.#schedule(id);
        return;
      }
      const deadline = nextGateDeadline(questions);
      if (deadline !== undefined) await this.#runs.schedule(id, new Date(deadline));
    } catch (error) {
      this.#store.update(id, {
        status: 'failed',
        failure: {
          reason: `its gate's timeout could not be scheduled: ${error instanceof Error ? error.message : String(error)}`,
        },
      });
    }
  }

  #schedule(id: string): void {
    scheduleCommitted(this.#store, this.#runs, id);
  }
}
