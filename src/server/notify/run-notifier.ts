import type { PipelineEvent } from '../../shared/pipeline-event.js';
import type { WebhookDelivery } from './deliver-webhook.js';
import { type NotifiedRun, notificationFor } from './notification.js';
import { type NotifyFormat, signatureOf, webhookBody } from './webhook-body.js';

/** Where deliveries wait until sent: a file outbox, or the database's job queue. */
export interface DeliveryQueue {
  add(delivery: WebhookDelivery): void;
}

export interface RunNotifierOptions {
  urls: readonly string[];
  /** Every body is signed with it as it is queued (`x-attractor-signature`). */
  secret: string;
  format: NotifyFormat;
  /** The web view's address, for links in the notifications. */
  linkBase: string;
  queue: DeliveryQueue;
}

/**
 * Turns a run's events into webhook deliveries (a gate waits or is answered, the run ends), one per URL,
 * signed here: a delivery is sent as it was queued, by whichever process takes it.
 */
export class RunNotifier {
  readonly #options: RunNotifierOptions;

  constructor(options: RunNotifierOptions) {
    this.#options = options;
  }

  heard(run: NotifiedRun, event: PipelineEvent): void {
    const notification = notificationFor(run, event, this.#options.linkBase);
    if (notification === undefined) return;
    const body = webhookBody(notification, this.#options.format);
    const signature = signatureOf(body, this.#options.secret);
    this.#options.urls.forEach((url, index) => {
      this.#options.queue.add({
        id: `${notification.id}#${index}`,
        url,
        body,
        signature,
        run_id: run.id,
        notification: notification.kind,
      });
    });
  }
}
