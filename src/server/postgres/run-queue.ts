import { Logger, makeWorkerUtils, type Runner, run, type WorkerUtils } from 'graphile-worker';
import { z } from 'zod';

/** The one task: execute (start, continue or resume) a run. */
const RUN_TASK = 'attractor_run';
const RunJobSchema = z.object({
  run_id: z.string().min(1),
  /** The job of a run's lease: its worker stopped pushing it back, so the run is taken over. */
  takeover: z.boolean().optional(),
});
export type RunJob = z.infer<typeof RunJobSchema>;

// graphile-worker logs every job; a server's output is its own.
const quiet = new Logger(() => () => {});

/**
 * Runs waiting for a worker, on graphile-worker's tables in the same database
 * (docs/decisions/0221-graphile-worker-schedules-runs.md). One job key per run: scheduling a run twice
 * (two servers answering its gate at once) leaves one job.
 */
export class RunQueue {
  readonly #url: string;
  readonly #utils: WorkerUtils;
  #runner: Runner | undefined;

  private constructor(url: string, utils: WorkerUtils) {
    this.#url = url;
    this.#utils = utils;
  }

  static async open(url: string): Promise<RunQueue> {
    const utils = await makeWorkerUtils({ connectionString: url, logger: quiet });
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
        ...(at ? { runAt: at } : {}),
      },
    );
  }

  /**
   * Hold run `id`'s lease while executing it: a delayed job `leaseMs` ahead, pushed back every third of
   * that (one statement: its job key in replace mode). If this process dies, the job fires and another
   * worker takes the run over from its checkpoint. `onLost` hears a renewal that failed: the run must
   * stop here, since another worker may take it. Returns the release (the job is removed).
   */
  holdLease(id: string, leaseMs: number, onLost: (error: Error) => void): () => Promise<void> {
    const key = `lease:${id}`;
    const renew = (): Promise<unknown> =>
      this.#utils.addJob(
        RUN_TASK,
        { run_id: id, takeover: true },
        { jobKey: key, jobKeyMode: 'replace', maxAttempts: 5, runAt: new Date(Date.now() + leaseMs) },
      );
    let released = false;
    let renewing = renew();
    renewing.catch((error: Error) => onLost(error));
    const timer = setInterval(() => {
      renewing = renew();
      renewing.catch((error: Error) => {
        if (!released) onLost(error);
      });
    }, leaseMs / 3);
    timer.unref();
    return async () => {
      released = true;
      clearInterval(timer);
      await renewing.catch(() => {});
      await this.#utils.withPgClient((client) =>
        client.query('SELECT graphile_worker.remove_job($1)', [key]),
      );
    };
  }

  /** Execute runs as they are scheduled, `concurrency` at once, until `close()`. */
  async work(execute: (job: RunJob) => Promise<void>, concurrency: number): Promise<void> {
    this.#runner = await run({
      connectionString: this.#url,
      concurrency,
      noHandleSignals: true,
      pollInterval: 1_000,
      logger: quiet,
      taskList: {
        [RUN_TASK]: async (payload) => execute(RunJobSchema.parse(payload)),
      },
    });
  }

  async close(): Promise<void> {
    await this.#runner?.stop();
    await this.#utils.release();
  }
}
