import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deliverWebhook, type WebhookDelivery } from '../../../src/server/notify/deliver-webhook.js';
import { FileOutbox } from '../../../src/server/notify/file-outbox.js';
import { signatureOf } from '../../../src/server/notify/webhook-body.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.js';

const SECRET = 'a-long-shared-secret-for-tests';
const FAST = { initialMs: 10, factor: 2, maxMs: 50, jitter: false };

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

async function receiver(statuses: number[] = []): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver(SECRET, statuses);
  closing.push(() => started.close());
  return started;
}

/** A delivery as a notifier queues it: signed with the shared secret. */
function signed(id: string, url: string, body: string): WebhookDelivery {
  return { id, url, body, signature: signatureOf(body, SECRET), run_id: 'r1', notification: 'gate.waiting' };
}

function outbox(dir: string, failed: string[] = [], maxAttempts = 4): FileOutbox {
  const box = new FileOutbox({
    dir,
    deliver: deliverWebhook,
    onFailed: ({ delivery, attempts, error }) => failed.push(`${delivery.id} after ${attempts}: ${error}`),
    policy: { maxAttempts, schedule: FAST },
  });
  closing.push(() => box.close());
  return box;
}

describe('the file outbox', () => {
  it('retries after 500s and delivers once, signed, with the same delivery id', async () => {
    const hook = await receiver([500, 503]);
    const box = outbox(tempDir());
    box.add(signed('n1#0', hook.url, '{"kind":"gate.waiting"}'));
    box.add(signed('n1#0', hook.url, '{"kind":"gate.waiting"}'));
    await box.idle();
    expect(hook.attempts).toBe(3);
    expect(hook.received).toEqual([
      { body: '{"kind":"gate.waiting"}', json: { kind: 'gate.waiting' }, delivery: 'n1#0', signed: true },
    ]);
  });

  it('gives up after its last attempt: one failed-delivery report, the delivery kept in failed/', async () => {
    const hook = await receiver([500, 500, 500, 500, 500]);
    const dir = tempDir();
    const failed: string[] = [];
    const box = outbox(dir, failed, 3);
    box.add(signed('n2#0', hook.url, '{}'));
    await box.idle();
    expect(hook.attempts).toBe(3);
    expect(failed).toEqual([`n2#0 after 3: ${hook.url} answered 500`]);
    const kept = readdirSync(path.join(dir, 'failed'));
    expect(kept).toHaveLength(1);
    expect(readdirSync(path.join(dir, 'pending'))).toEqual([]);
    // It holds the webhook URL, whose path is often the receiver's secret.
    expect(statSync(path.join(dir, 'failed', kept[0] ?? '')).mode & 0o777).toBe(0o600);
  });

  it('loses nothing to a restart: what is pending is sent by the next outbox on the folder', async () => {
    const dir = tempDir();
    const down = await receiver();
    const url = down.url;
    await down.close();
    const first = outbox(dir, [], 10);
    first.add(signed('n3#0', url, '{"n":3}'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await first.close();
    const pending = readdirSync(path.join(dir, 'pending'));
    expect(pending).toHaveLength(1);
    expect(statSync(path.join(dir, 'pending', pending[0] ?? '')).mode & 0o777).toBe(0o600);
    // The receiver is back on the same port, and a new process opens the same outbox.
    const port = Number(new URL(url).port);
    const { createServer } = await import('node:http');
    const bodies: string[] = [];
    const back = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        bodies.push(body);
        response.end();
      });
    });
    await new Promise<void>((resolve) => back.listen(port, '127.0.0.1', resolve));
    closing.push(() => new Promise<void>((resolve) => back.close(() => resolve())));
    const second = outbox(dir, [], 10);
    second.start();
    await second.idle();
    expect(bodies).toEqual(['{"n":3}']);
    expect(existsSync(path.join(dir, 'failed'))).toBe(false);
  });
});
