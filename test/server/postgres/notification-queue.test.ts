/**
 * The PostgreSQL notification queue (decision 0520) against a real database and a local receiver:
 * retries with the policy's backoff, one report of a delivery given up, deliveries a stopped process
 * queued sent by another, and one send per delivery however many processes deliver.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookDelivery } from '../../../src/server/notify/deliver-webhook.js';
import type { DeliveryFailed } from '../../../src/server/notify/delivery-failed.js';
import { signatureOf } from '../../../src/server/notify/webhook-body.js';
import {
  NotificationQueue,
  type NotificationQueueOptions,
} from '../../../src/server/postgres/notification-queue.js';
import { ensureDist, ROOT } from '../../helpers/ensure-dist.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.js';
import { waitFor } from '../server-fixtures.js';

const cluster = postgresClusterForFile(180_000);
const SECRET = 'notification-queue-secret-0123';
const FAST = { schedule: { initialMs: 20, factor: 2, maxMs: 100, jitter: false }, pollIntervalMs: 100 };

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

async function receiver(statuses: number[] = []): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver(SECRET, statuses);
  closing.push(() => started.close());
  return started;
}

async function queue(
  url: string,
  options: Partial<NotificationQueueOptions> = {},
): Promise<NotificationQueue> {
  const opened = await NotificationQueue.open(url, {
    policy: { ...FAST, maxAttempts: 4 },
    onFailed: async () => {},
    onError: (error) => {
      throw error;
    },
    ...options,
  });
  closing.push(() => opened.close());
  return opened;
}

function signed(id: string, url: string, body = `{"id":"${id}"}`): WebhookDelivery {
  return { id, url, body, signature: signatureOf(body, SECRET), run_id: 'r1', notification: 'gate.waiting' };
}

describe.runIf(PG_AVAILABLE || PG_REQUIRED)('the PostgreSQL notification queue', () => {
  beforeAll(() => {
    ensureDist();
  }, 180_000);

  it('retries a receiver answering 500 with backoff, then delivers once, signed, with one delivery id', async () => {
    const url = await cluster.createDatabase('notify_retry');
    const hook = await receiver([500, 500]);
    const notifications = await queue(url);
    await notifications.deliverHere(1);
    notifications.add(signed('d1#0', hook.url));
    await waitFor(() => hook.received[0], 'the delivery', 15_000);
    expect(hook.attempts).toBe(3);
    expect(hook.received).toEqual([
      { body: '{"id":"d1#0"}', json: { id: 'd1#0' }, delivery: 'd1#0', signed: true },
    ]);
  });

  it('gives a delivery to a receiver that is down up after its last attempt, reporting it once', async () => {
    const url = await cluster.createDatabase('notify_down');
    const down = await startWebhookReceiver(SECRET);
    await down.close();
    const failed: DeliveryFailed[] = [];
    const notifications = await queue(url, {
      policy: { ...FAST, maxAttempts: 3 },
      onFailed: async (report) => {
        failed.push(report);
      },
    });
    await notifications.deliverHere(2);
    notifications.add(signed('d2#0', down.url));
    await waitFor(() => failed[0], 'the delivery to be given up', 15_000);
    // Longer than the whole schedule again: nothing more is tried or reported.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ attempts: 3, delivery: { id: 'd2#0', run_id: 'r1' } });
    expect(failed[0]?.error).toMatch(/fetch failed|ECONNREFUSED/);
  });

  it('sends what another process queued before it exited, from this one', async () => {
    const url = await cluster.createDatabase('notify_handover');
    const hook = await receiver();
    // A process of its own queues the delivery, then exits: nothing of it is left but the job.
    const module = pathToFileURL(path.join(ROOT, 'dist', 'server', 'postgres', 'notification-queue.js')).href;
    const script = `
      const { NotificationQueue } = await import(${JSON.stringify(module)});
      const queue = await NotificationQueue.open(${JSON.stringify(url)}, {
        onFailed: async () => {},
        onError: (error) => { console.error(error); process.exitCode = 1; },
      });
      queue.add(${JSON.stringify(signed('d3#0', hook.url))});
      await queue.close();
    `;
    const exit = await new Promise<number | null>((resolve) => {
      spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'inherit' }).once(
        'exit',
        resolve,
      );
    });
    expect(exit).toBe(0);
    expect(hook.attempts).toBe(0);
    const deliverer = await queue(url);
    await deliverer.deliverHere(1);
    const got = await waitFor(() => hook.received[0], 'the handed-over delivery', 15_000);
    expect(got).toMatchObject({ delivery: 'd3#0', signed: true });
  });

  it('sends each delivery once, though two processes queue it and two deliver', async () => {
    const url = await cluster.createDatabase('notify_once');
    const hook = await receiver();
    const a = await queue(url);
    const b = await queue(url);
    const ids = Array.from({ length: 20 }, (_, i) => `d4-${i}#0`);
    for (const id of ids) {
      a.add(signed(id, hook.url));
      b.add(signed(id, hook.url));
    }
    await Promise.all([a.queued(), b.queued()]);
    await Promise.all([a.deliverHere(2), b.deliverHere(2)]);
    await waitFor(() => hook.received.length >= ids.length || undefined, 'every delivery', 15_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(hook.received.map((r) => r.delivery).sort()).toEqual([...ids].sort());
    expect(hook.attempts).toBe(ids.length);
  });
});
