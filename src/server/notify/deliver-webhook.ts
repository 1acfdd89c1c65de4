import { signatureOf } from './webhook-body.js';

export interface WebhookDelivery {
  /** The notification's id (`x-attractor-delivery`), the same on every retry. */
  id: string;
  url: string;
  body: string;
}

/** How long one attempt may take: a receiver that hangs is a failed attempt, retried later. */
const ATTEMPT_LIMIT_MS = 10_000;

/** One attempt: POSTs the body signed with `secret`; throws unless the receiver answers 2xx. */
export async function deliverWebhook(delivery: WebhookDelivery, secret: string): Promise<void> {
  const response = await fetch(delivery.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'attractor-webhook',
      'x-attractor-delivery': delivery.id,
      'x-attractor-signature': signatureOf(delivery.body, secret),
    },
    body: delivery.body,
    redirect: 'error',
    signal: AbortSignal.timeout(ATTEMPT_LIMIT_MS),
  });
  // The body is not ours to read; let the connection go.
  await response.body?.cancel().catch(() => {});
  if (!response.ok) throw new Error(`${delivery.url} answered ${response.status}`);
}
