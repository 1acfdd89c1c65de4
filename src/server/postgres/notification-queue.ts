import { EventEmitter } from 'node:events';
import { makeWorkerUtils, type Runner, run, type WorkerEvents, type WorkerUtils } from 'graphile-worker';
import * as z from 'zod';
import { deliverWebhook, type WebhookDelivery, WebhookDeliverySchema } from '../notify/deliver-webhook.js';
import type { DeliveryFailed } from '../notify/delivery-failed.js';
import { type DeliveryPolicy, nextAttemptDelayMs } from '../notify/delivery-policy.js';
import type { DeliveryQueue } from '../notify/run-notifier.js';
import { quietGraphileLogger } from './quiet-graphile-logger.js';

/** The one task that sends a webhook; runners of runs (`attractor_run`) never take it. */
const NOTIFY_TASK = 'attractor_notify';
const NotifyJobSchema = z.strictObject({
  delivery: WebhookDeliverySchema,
  /** Attempts made before this one. */
  attempts: z.number().int().nonnegative(),
});
type NotifyJob = z.infer<typeof NotifyJobSchema>;

/**
 * graphile-worker's own retries, for a job whose handler itself failed (the database went away while it
 * rescheduled): the delivery's attempts and their backoff are ours, in the payload.
 */
const INFRASTRUCTURE_ATTEMPTS = 5;

export interface NotificationQueueOptions {
  policy?: DeliveryPolicy;
  /** A delivery given up after its last attempt: record it (`reportDeliveryFailed`). */
  onFailed: (failed: DeliveryFailed) => Promise<void>;
  /** A delivery that could not even be queued (the database is unreachable). */
  onError: (error: Error) => void;
  deliver?: (delivery: WebhookDelivery) => Promise<void>;
}

/**
 * Webhook deliveries on the database's graphile-worker queue (decision 0520): one job per delivery id
 * (queued twice, it is one job), retried with the project's backoff by rescheduling itself, and sent by
 * every process that delivers (`deliverHere`) on a runner of its own, so no run, however long, holds a
 * notification up. A process that queued deliveries and stopped leaves them to the others.
 */
export class NotificationQueue implements DeliveryQueue {
  readonly #url: string;
  readonly #utils: WorkerUtils;
  readonly #options: NotificationQueueOptions;
  readonly #adding = new Set<Promise<unknown>>();
  #runner: Runner | undefined;

  private constructor(url: string, utils: WorkerUtils, options: NotificationQueueOptions) {
    this.#url = url;
    this.#utils = utils;
    this.#options = options;
  }

  static async open(url: string, options: NotificationQueueOptions): Promise<NotificationQueue> {
    const utils = await makeWorkerUtils({ connectionString: url, logger: quietGraphileLogger });
    try {
      await utils.migrate();
    } catch (error) {
      await utils.release();
      throw error;
    }
    return new NotificationQueue(url, utils, options);
  }

  /** Queue a delivery: never waits, never throws (a run must not); a failure goes to `onError`. */
  add(delivery: WebhookDelivery): void {
    const adding = this.#utils
      .addJob(NOTIFY_TASK, { delivery, attempts: 0 } satisfies NotifyJob, {
        jobKey: jobKeyOf(delivery),
        // Queued once: the same delivery again, even while it is being sent, is not a second job.
        jobKeyMode: 'unsafe_dedupe',
        maxAttempts: INFRASTRUCTURE_ATTEMPTS,
      })
      .catch((error: Error) => this.#options.onError(error));
    this.#adding.add(adding);
    void adding.finally(() => this.#adding.delete(adding));
  }

  /** Resolves once every `add` so far is committed. */
  async queued(): Promise<void> {
    await Promise.all([...this.#adding]);
  }

  /**
   * Send pending deliveries from this process, `concurrency` at once, until `close()`. Resolves to the
   * runner's graphile-worker ids, for the process's lease (`RunQueue.work`): a deliverer that dies
   * mid-send has its job unlocked and sent by another.
   */
  async deliverHere(concurrency: number): Promise<readonly string[]> {
    const events: WorkerEvents = new EventEmitter();
    const ids: string[] = [];
    events.on('worker:create', ({ worker }) => ids.push(worker.workerId));
    this.#runner = await run({
      connectionString: this.#url,
      concurrency,
      noHandleSignals: true,
      pollInterval: this.#options.policy?.pollIntervalMs ?? 1_000,
      logger: quietGraphileLogger,
      events,
      taskList: { [NOTIFY_TASK]: async (payload) => this.#attempt(NotifyJobSchema.parse(payload)) },
    });
    return ids;
  }

  /** One attempt; a failed one reschedules the delivery (its key moves to the new job) or gives it up. */
  async #attempt(job: NotifyJob): Promise<void> {
    try {
      await (this.#options.deliver ?? deliverWebhook)(job.delivery);
      return;
    } catch (error) {
      const attempts = job.attempts + 1;
      const message = error instanceof Error ? error.message : String(error);
      const delay = nextAttemptDelayMs(this.#options.policy ?? {}, attempts);
      if (delay === undefined) {
        await this.#options.onFailed({ delivery: job.delivery, attempts, error: message });
        return;
      }
      await this.#utils.addJob(NOTIFY_TASK, { delivery: job.delivery, attempts } satisfies NotifyJob, {
        jobKey: jobKeyOf(job.delivery),
        jobKeyMode: 'replace',
        maxAttempts: INFRASTRUCTURE_ATTEMPTS,
        runAt: new Date(Date.now() + delay),
      });
    }
  }

  async close(): Promise<void> {
    await this.queued();
    await this.#runner?.stop();
    await this.#utils.release();
  }
}

function jobKeyOf(delivery: WebhookDelivery): string {
  return `notify:${delivery.id}`;
}
