import { Logger, makeWorkerUtils, type Runner, run, type WorkerUtils } from 'graphile-worker';
import { z } from 'zod';

/** The one task: execute (start, continue or resume) a run. */
const RUN_TASK = 'attractor_run';
const RunJobSchema = z.object({ run_id: z.string().min(1) });

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

  /** Ask a worker to execute run `id` (now, or at `at`: a gate's timeout). */
  async schedule(id: string, at?: Date): Promise<void> {
    await this.#utils.addJob(
      RUN_TASK,
      { run_id: id },
      { jobKey: `run:${id}`, jobKeyMode: 'replace', maxAttempts: 5, ...(at ? { runAt: at } : {}) },
    );
  }

  /** Execute runs as they are scheduled, `concurrency` at once, until `close()`. */
  async work(execute: (id: string) => Promise<void>, concurrency: number): Promise<void> {
    this.#runner = await run({
      connectionString: this.#url,
      concurrency,
      noHandleSignals: true,
      pollInterval: 1_000,
      logger: quiet,
      taskList: {
        [RUN_TASK]: async (payload) => execute(RunJobSchema.parse(payload).run_id),
      },
    });
  }

  async close(): Promise<void> {
    await this.#runner?.stop();
    await this.#utils.release();
  }
}
