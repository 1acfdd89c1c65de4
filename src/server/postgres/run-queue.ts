import { EventEmitter } from 'node:events';
import { makeWorkerUtils, type Runner, run, type WorkerEvents, type WorkerUtils } from 'graphile-worker';
import * as z from 'zod';
import { definedFields } from '../../shared/defined-fields.js';
import { quietGraphileLogger } from './quiet-graphile-logger.js';

/** The one task that executes (starts, continues or resumes) a run. */
const RUN_TASK = 'attractor_run';
const RunJobSchema = z.object({
  run_id: z.string().min(1),
  /** The job of a run's lease: its worker stopped pushing it back, so the run is taken over. */
  takeover: z.boolean().optional(),
});
export type RunJob = z.infer<typeof RunJobSchema>;

/** A worker process's own lease: it fires when that process stopped pushing it back (it died). */
const ALIVE_TASK = 'attractor_worker_alive';
const AliveJobSchema = z.object({ worker_ids: z.array(z.string().min(1)).min(1) });

/**
 * Runs waiting for a worker, on graphile-worker's tables in the same database
 * (docs/decisions/0221-graphile-worker-schedules-runs.md). One job key per run: scheduling a run twice
 * (two servers answering its gate at once) leaves one job.
 */
export class RunQueue {
  readonly #url: string;
  readonly #utils: WorkerUtils;
  #runner: Runner | undefined;
  #workerIds: readonly string[] = [];
  #stopAlive: (() => Promise<void>) | undefined;

  private constructor(url: string, utils: WorkerUtils) {
    this.#url = url;
    this.#utils = utils;
  }

  static async open(url: string): Promise<RunQueue> {
    const utils = await makeWorkerUtils({ connectionString: url, logger: quietGraphileLogger });
    try {
      await utils.migrate();
    } catch (error) {
      await utils.release();
      throw error;
    }
    return new RunQueue(url, utils);
  }

  /**
   * Ask a worker to execute run `id`: now (replacing a pending job of the run, so an answer cancels its
   * gate's timeout), or at `at` (a gate's timeout), which leaves a job already due (an answer's) as it is.
   */
  async schedule(id: string, at?: Date): Promise<void> {
    await this.#utils.addJob(
      RUN_TASK,
      { run_id: id },
      {
        jobKey: `run:${id}`,
        jobKeyMode: at ? 'preserve_run_at' : 'replace',
        maxAttempts: 5,
        ...definedFields({ runAt: at }),
      },
    );
  }

  /**
   * Hold run `id`'s lease while executing it: a delayed job `leaseMs` ahead, pushed back every third of
   * that (one statement: its job key in replace mode). If this process dies, the job fires and another
   * worker takes the run over from its checkpoint. `onLost` hears a renewal that failed, or `stillOwned`
   * answering false (another worker took the run): the run must stop here. Returns the release, which
   * removes the job unless told the run was lost (the job with that key is then the new owner's).
   */
  holdLease(
    id: string,
    leaseMs: number,
    onLost: (error: Error) => void,
    stillOwned: () => Promise<boolean> = async () => true,
  ): (lost?: boolean) => Promise<void> {
    const key = `lease:${id}`;
    const renew = async (): Promise<void> => {
      if (!(await stillOwned())) throw new Error(`run ${id} was taken over by another worker`);
      await this.#utils.addJob(
        RUN_TASK,
        { run_id: id, takeover: true },
        { jobKey: key, jobKeyMode: 'replace', maxAttempts: 5, runAt: new Date(Date.now() + leaseMs) },
      );
    };
    let released = false;
    const renewing = (): Promise<void> => {
      const attempt = renew();
      attempt.catch((error: Error) => {
        if (!released) onLost(error);
      });
      return attempt;
    };
    let pending = renewing();
    const timer = setInterval(() => {
      pending = renewing();
    }, leaseMs / 3);
    timer.unref();
    return async (lost = false) => {
      released = true;
      clearInterval(timer);
      await pending.catch(() => {});
      if (lost) return;
      await this.#utils.withPgClient((client) =>
        client.query('SELECT graphile_worker.remove_job($1)', [key]),
      );
    };
  }

  /**
   * Execute runs as they are scheduled, `concurrency` at once, until `close()`; resolves once this
   * process's own lease is in place. This process keeps its own lease too (`leaseMs`, pushed back every
   * third of it): a job it had taken from the queue before any run's lease existed (a continuation
   * about to start) stays locked by graphile-worker for hours when the process dies, so the worker that
   * hears this lease fire unlocks the dead one's jobs and they run again. A run they reach twice is
   * executed once: its owner is the run row's attempt. `alsoAlive`: the process's other runners' ids
   * (its notification deliverer's), under the same lease.
   */
  async work(
    execute: (job: RunJob) => Promise<void>,
    concurrency: number,
    leaseMs: number,
    alsoAlive: readonly string[] = [],
  ): Promise<void> {
    const events: WorkerEvents = new EventEmitter();
    const ids: string[] = [];
    events.on('worker:create', ({ worker }) => ids.push(worker.workerId));
    this.#runner = await run({
      connectionString: this.#url,
      concurrency,
      noHandleSignals: true,
      pollInterval: 1_000,
      logger: quietGraphileLogger,
      events,
      taskList: {
        [RUN_TASK]: async (payload) => execute(RunJobSchema.parse(payload)),
        [ALIVE_TASK]: async (payload) => {
          const dead = AliveJobSchema.parse(payload).worker_ids;
          // Our own lease, late because this process was too busy to push it back: we are alive.
          if (dead.some((id) => this.#workerIds.includes(id) || alsoAlive.includes(id))) return;
          await this.#utils.forceUnlockWorkers(dead);
        },
      },
    });
    this.#workerIds = ids;
    this.#stopAlive = await this.#keepAlive([...ids, ...alsoAlive], leaseMs);
  }

  /** This process's worker ids (graphile-worker's, one per concurrent job), once `work` started. */
  get workerIds(): readonly string[] {
    return this.#workerIds;
  }

  /** Resolves once the lease is first in place; to the stop, which removes it. */
  async #keepAlive(ids: readonly string[], leaseMs: number): Promise<() => Promise<void>> {
    const key = `alive:${ids[0]}`;
    const push = (): Promise<unknown> =>
      this.#utils
        .addJob(
          ALIVE_TASK,
          { worker_ids: ids },
          { jobKey: key, jobKeyMode: 'replace', maxAttempts: 5, runAt: new Date(Date.now() + leaseMs) },
        )
        // A failed push is the next one's to make; a run's own lease stops it if the database is gone.
        .catch(() => {});
    let pending = push();
    await pending;
    const timer = setInterval(() => {
      pending = push();
    }, leaseMs / 3);
    timer.unref();
    return async () => {
      clearInterval(timer);
      await pending;
      await this.#utils
        .withPgClient((client) => client.query('SELECT graphile_worker.remove_job($1)', [key]))
        .catch(() => {});
    };
  }

  async close(): Promise<void> {
    await this.#runner?.stop();
    await this.#stopAlive?.();
    await this.#utils.release();
  }
}
