import * as z from 'zod';
import { AttractorError } from '../../shared/errors.js';

/**
 * One webhook to send, with everything needed to send it without the process that made it: the body is
 * signed when it is queued, so any deliverer (another worker, after this one died) sends it as it was.
 */
export const WebhookDeliverySchema = z.strictObject({
  /** The notification's id and the URL's index (`x-attractor-delivery`), the same on every retry. */
  id: z.string().min(1),
  url: z.string(),
  body: z.string(),
  /** `x-attractor-signature` of `body`, made with the secret of the process that queued it. */
  signature: z.string(),
  /** The run it tells of: where a delivery that never arrives is recorded. */
  run_id: z.string(),
  /** The notification's kind (`gate.waiting`, `gate.answered`, `run.finished`). */
  notification: z.string(),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

/** How long one attempt may take: a receiver that hangs is a failed attempt, retried later. */
const ATTEMPT_LIMIT_MS = 10_000;

/** One attempt: POSTs the signed body; throws unless the receiver answers 2xx. */
export async function deliverWebhook(delivery: WebhookDelivery): Promise<void> {
  const response = await fetch(delivery.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'attractor-webhook',
      'x-attractor-delivery': delivery.id,
      'x-attractor-signature': delivery.signature,
    },
    body: delivery.body,
    redirect: 'error',
    signal: AbortSignal.timeout(ATTEMPT_LIMIT_MS),
  });
  // The body is not ours to read; let the connection go.
  await response.body?.cancel().catch(() => {});
  if (!response.ok)
    throw new AttractorError('WEBHOOK_REJECTED', `${delivery.url} answered ${response.status}`);
}
