/**
 * A worker that dies while sending a notification strands nothing: its deliverer's jobs are under the
 * worker's lease, so once the lease fires another worker with `--notify` sends the delivery.
 */
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { signatureOf } from '../../../src/server/notify/webhook-body.js';
import { NotificationQueue } from '../../../src/server/postgres/notification-queue.js';
import { startWorker } from '../../../src/worker/start-worker.js';
import { ensureDist } from '../../helpers/ensure-dist.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { waitFor } from '../server-fixtures.js';
import { machinesForEachTest } from './machines-fixtures.js';

const cluster = postgresClusterForFile(180_000);
const machines = machinesForEachTest();
const SECRET = 'dead-deliverer-secret-0123456789';

/** A receiver whose first request never gets an answer (the deliverer dies waiting); later ones get 200. */
async function hangingFirst(): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const held: ServerResponse[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => {
      requests.push(String(request.headers['x-attractor-delivery']));
      if (requests.length === 1) held.push(response);
      else response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of held) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.runIf(PG_AVAILABLE || PG_REQUIRED)('a worker that dies while sending a notification', () => {
  beforeAll(() => {
    ensureDist();
  }, 180_000);

  it('leaves the delivery to another worker once its lease fires', async () => {
    const url = await cluster.createDatabase('dead_deliverer');
    const hook = await hangingFirst();
    try {
      const secretFile = path.join(tempDir(), 'secret');
      writeFileSync(secretFile, SECRET);
      const notifyFlags = ['--notify', hook.url, '--notify-secret-file', secretFile];
      const doomed = machines.workerProcess(url, tempDir(), 2, [...notifyFlags, '--public-url', 'https://x']);
      const enqueuer = await NotificationQueue.open(url, { onFailed: async () => {}, onError: () => {} });
      const body = '{"kind":"run.finished"}';
      enqueuer.add({
        id: 'dying#0',
        url: hook.url,
        body,
        signature: signatureOf(body, SECRET),
        run_id: 'r1',
        notification: 'run.finished',
      });
      await enqueuer.close();
      await waitFor(() => hook.requests[0], 'the doomed worker to send', 30_000);
      doomed.kill('SIGKILL');
      machines.workers.push(
        await startWorker({
          store: url,
          dataDir: tempDir(),
          concurrency: 1,
          allowTools: false,
          leaseMs: 2_000,
          notify: {
            urls: [hook.url],
            secret: SECRET,
            format: 'json',
            publicUrl: 'https://x',
            policy: { pollIntervalMs: 200 },
          },
        }),
      );
      await waitFor(() => hook.requests[1], 'the delivery from the other worker', 30_000);
      expect(hook.requests).toEqual(['dying#0', 'dying#0']);
    } finally {
      await hook.close();
    }
  }, 90_000);
});
