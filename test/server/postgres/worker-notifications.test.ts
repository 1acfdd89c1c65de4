/**
 * Notifications of runs executed by workers (decision 0520), through the database's queue to a local
 * receiver: signed, a continued run's gate not announced twice, sent while every run slot is busy, and
 * a receiver that stays down recorded once in the run's events, the run unaffected.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { NotifySettings } from '../../../src/server/notify/notify-settings.js';
import { signatureOf } from '../../../src/server/notify/webhook-body.js';
import { NotificationQueue } from '../../../src/server/postgres/notification-queue.js';
import { type RunningWorker, startWorker } from '../../../src/worker/start-worker.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.js';
import {
  closeServers,
  GATE_PIPELINE,
  readSse,
  type TestServer,
  testServer,
  waitFor,
} from '../server-fixtures.js';

const cluster = postgresClusterForFile(180_000);
const SECRET = 'worker-notification-secret-0123';
const FAST = { schedule: { initialMs: 20, factor: 2, maxMs: 100, jitter: false }, pollIntervalMs: 100 };

const closing: Array<() => Promise<void>> = [];
const workers: RunningWorker[] = [];
afterEach(async () => {
  await closeServers();
  for (const worker of workers.splice(0)) await worker.drain(1_000);
  for (const close of closing.splice(0)) await close();
});

async function receiver(statuses: number[] = []): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver(SECRET, statuses);
  closing.push(() => started.close());
  return started;
}

async function worker(url: string, hookUrl: string, concurrency = 2, maxAttempts = 4): Promise<void> {
  const notify: NotifySettings = {
    urls: [hookUrl],
    secret: SECRET,
    format: 'json',
    publicUrl: 'https://attractor.example',
    policy: { ...FAST, maxAttempts },
  };
  workers.push(await startWorker({ store: url, dataDir: tempDir(), concurrency, allowTools: true, notify }));
}

async function status(server: TestServer, id: string, statuses: string[]): Promise<string> {
  return waitFor(
    async () => {
      const { body } = await server.json('GET', `/pipelines/${id}`);
      return statuses.includes(body.status) ? body.status : undefined;
    },
    `run ${id} to be ${statuses.join(' or ')}`,
    30_000,
  );
}

/** The run's events as a reader sees them, once one of kind `kind` is among them. */
async function eventsWith(server: TestServer, id: string, kind: string) {
  return waitFor(
    async () => {
      // Only the run's events (numbered), not the stream's end.
      const messages = await readSse(`${server.url}/pipelines/${id}/events`);
      const events = messages.filter((m) => m.id !== undefined).map((m) => m.data);
      return events.some((e) => e['kind'] === kind) ? events : undefined;
    },
    `a ${kind} event of run ${id}`,
    15_000,
  );
}

describe.runIf(PG_AVAILABLE || PG_REQUIRED)('notifications of runs on workers', () => {
  it('sends gate.waiting, gate.answered and run.finished, signed, and the continued gate only once', async () => {
    const url = await cluster.createDatabase('worker_notify');
    const hook = await receiver([500]);
    const server = await testServer({ store: url });
    await worker(url, hook.url);
    const { body: run } = await server.json('POST', '/pipelines', {
      dot_source: GATE_PIPELINE,
      dry_run: true,
    });
    await status(server, run.id, ['waiting']);
    const waiting = await waitFor(() => hook.received[0], 'gate.waiting', 15_000);
    expect(waiting).toMatchObject({
      signed: true,
      json: {
        kind: 'gate.waiting',
        run_id: run.id,
        node: 'review',
        link: `https://attractor.example/#/runs/${run.id}?node=review`,
      },
    });
    const [question] = (await server.json('GET', `/pipelines/${run.id}/questions`)).body;
    await server.json('POST', `/pipelines/${run.id}/questions/${question.id}/answer`, { answer: 'S' });
    await status(server, run.id, ['completed']);
    await waitFor(() => (hook.received.length >= 3 ? true : undefined), 'three notifications', 15_000);
    // The continuation asks the gate again (and finds the answer): that asking is not news.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(hook.received.map((r) => r.json['kind']).sort()).toEqual([
      'gate.answered',
      'gate.waiting',
      'run.finished',
    ]);
    expect(hook.received.every((r) => r.signed)).toBe(true);
    expect(hook.received.find((r) => r.json['kind'] === 'gate.answered')?.json).toMatchObject({
      answer: '[S] Ship',
      answered_by: 'anonymous',
    });
    // The first attempt was answered 500: one retry, the same delivery.
    expect(hook.attempts).toBe(4);
  }, 90_000);

  it("delivers while every one of the worker's run slots is busy", async () => {
    const url = await cluster.createDatabase('worker_notify_busy');
    const hook = await receiver();
    const server = await testServer({ store: url, allowTools: true });
    await worker(url, hook.url, 1);
    const dot =
      'digraph t { start [shape=Mdiamond]; run [shape=parallelogram, tool_command="sleep 30"]; exit [shape=Msquare]; start -> run -> exit }';
    const { body: long } = await server.json('POST', '/pipelines', { dot_source: dot, scenario: {} });
    await status(server, long.id, ['running']);
    // Another process queues a notification; the only run slot is the long run's.
    const enqueuer = await NotificationQueue.open(url, { onFailed: async () => {}, onError: () => {} });
    const body = '{"kind":"gate.waiting"}';
    enqueuer.add({
      id: 'busy#0',
      url: hook.url,
      body,
      signature: signatureOf(body, SECRET),
      run_id: long.id,
      notification: 'gate.waiting',
    });
    await enqueuer.close();
    const got = await waitFor(() => hook.received[0], 'the delivery', 10_000);
    expect(got).toMatchObject({ delivery: 'busy#0', signed: true });
    expect((await server.json('GET', `/pipelines/${long.id}`)).body.status).toBe('running');
    await server.json('POST', `/pipelines/${long.id}/cancel`);
  }, 90_000);

  it('records one notification.failed in the run of a receiver that stays down; the run completes', async () => {
    const url = await cluster.createDatabase('worker_notify_down');
    const down = await startWebhookReceiver(SECRET);
    await down.close();
    const server = await testServer({ store: url });
    await worker(url, down.url, 2, 3);
    const linear =
      'digraph l { start [shape=Mdiamond]; a [prompt="A"]; exit [shape=Msquare]; start -> a -> exit }';
    const { body: run } = await server.json('POST', '/pipelines', { dot_source: linear, dry_run: true });
    expect(await status(server, run.id, ['completed', 'failed'])).toBe('completed');
    const events = await eventsWith(server, run.id, 'notification.failed');
    const failed = events.filter((e) => e['kind'] === 'notification.failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]?.['data']).toMatchObject({
      notification: 'run.finished',
      delivery: expect.stringContaining(`${run.id}:run.finished:`),
      receiver: new URL(down.url).origin,
      attempts: 3,
    });
    // After the run's end, and only once: a reader that comes later sees the same.
    expect(events.findIndex((e) => e['kind'] === 'pipeline.finalize')).toBeLessThan(events.length - 1);
    await new Promise((resolve) => setTimeout(resolve, 600));
    const { body: view } = await server.json('GET', `/pipelines/${run.id}`);
    expect(view.status).toBe('completed');
    expect(view.event_count).toBe(events.length);
  }, 90_000);
});
