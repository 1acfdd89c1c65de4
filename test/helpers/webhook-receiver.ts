import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

export interface ReceivedWebhook {
  body: string;
  json: Record<string, unknown>;
  delivery: string;
  /** Whether `x-attractor-signature` is the HMAC-SHA256 of the body with the receiver's secret. */
  signed: boolean;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Attempts answered, failed ones included. */
  attempts: number;
  close(): Promise<void>;
}

/**
 * A local webhook receiver that checks signatures as a real one would (constant-time compare) and answers
 * each attempt with the next status of `statuses` (then 200): `[500, 500]` fails the first two.
 */
export async function startWebhookReceiver(
  secret: string,
  statuses: number[] = [],
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const receiver: WebhookReceiver = { url: '', received, attempts: 0, close: async () => {} };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      receiver.attempts += 1;
      const status = statuses.shift() ?? 200;
      if (status === 200) {
        const body = Buffer.concat(chunks).toString('utf8');
        const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
        const given = Buffer.from(String(request.headers['x-attractor-signature'] ?? ''));
        received.push({
          body,
          json: JSON.parse(body),
          delivery: String(request.headers['x-attractor-delivery']),
          signed: given.length === expected.length && timingSafeEqual(given, expected),
        });
      }
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  receiver.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`;
  receiver.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return receiver;
}
