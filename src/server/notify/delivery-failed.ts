import type { PipelineEventOf } from '../../shared/pipeline-event.js';
import type { WebhookDelivery } from './deliver-webhook.js';

/** A delivery given up after its last attempt. */
export interface DeliveryFailed {
  delivery: WebhookDelivery;
  attempts: number;
  /** Why the last attempt failed. */
  error: string;
}

/** Where a given-up delivery is recorded: the run's own event stream, in whichever store keeps it. */
export type RecordDeliveryFailed = (
  runId: string,
  event: PipelineEventOf<'notification.failed'>,
) => Promise<void>;

/** The one event a run gets for a delivery that never arrived (its URL's path is left out: often a secret). */
export function deliveryFailedEvent(
  failed: DeliveryFailed,
  at: Date = new Date(),
): PipelineEventOf<'notification.failed'> {
  return {
    kind: 'notification.failed',
    data: {
      notification: failed.delivery.notification,
      delivery: failed.delivery.id,
      receiver: receiverOf(failed.delivery.url),
      attempts: failed.attempts,
      error: failed.error.replaceAll(failed.delivery.url, receiverOf(failed.delivery.url)),
    },
    timestamp: at.toISOString(),
  };
}

function receiverOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'an invalid URL';
  }
}

/**
 * Tells the operator (stderr, once) and the run's readers (its event stream) that a delivery never
 * arrived. A record that cannot be written is said on stderr too: the run is not the deliverer's to stop.
 */
export async function reportDeliveryFailed(
  failed: DeliveryFailed,
  record: RecordDeliveryFailed,
): Promise<void> {
  const { delivery } = failed;
  // Logs are read by more people than the webhook's secret path is for: said as the event says it.
  const { receiver, error } = deliveryFailedEvent(failed).data;
  process.stderr.write(
    `attractor: a notification (${delivery.id}) to ${receiver} was not delivered after ${failed.attempts} attempts: ${error}\n`,
  );
  try {
    await record(delivery.run_id, deliveryFailedEvent(failed));
  } catch (error) {
    process.stderr.write(
      `attractor: run ${delivery.run_id}: the failed notification could not be recorded: ${String(error)}\n`,
    );
  }
}
