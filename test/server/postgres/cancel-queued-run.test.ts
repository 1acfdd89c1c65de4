import { existsSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { PostgresRunStore } from '../../../src/server/postgres/postgres-run-store.js';
import { type RemoteRuns, remoteRuns } from '../../../src/server/postgres/remote-runs.js';
import { RunQueue } from '../../../src/server/postgres/run-queue.js';
import { WorkerRuns } from '../../../src/worker/worker-runs.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { closeServers, testServer } from '../server-fixtures.js';

const cluster = postgresClusterForFile();
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  await closeServers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A worker's `WorkerRuns` that takes no jobs on its own: the test calls `execute` as the queue would,
 * so which of the worker's take and the server's cancel comes first is the test's to choose.
 */
async function handWorker(url: string, wrap: (runs: RemoteRuns, store: PostgresRunStore) => RemoteRuns) {
  const store = await PostgresRunStore.open(url, tempDir());
  const queue = await RunQueue.open(url);
  cleanups.push(async () => {
    await queue.close();
    await store.close();
  });
  const runs = wrap(remoteRuns(store, queue, 60_000), store);
  return new WorkerRuns({ store, allowTools: true, runs });
}

async function stored(url: string, id: string): Promise<{ status: string; events: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ status: string; events: string }>(
      'SELECT status, (SELECT count(*) FROM attractor.events WHERE run_id = $1) AS events FROM attractor.runs WHERE id = $1',
      [id],
    );
    return { status: rows[0]?.status ?? '', events: Number(rows[0]?.events) };
  } finally {
    await client.end();
  }
}

describe.runIf(PG_AVAILABLE || PG_REQUIRED)('cancelling a queued run that a worker is about to start', () => {
  const pipeline = (marks: string) => `digraph c {
    start [shape=Mdiamond]
    work [shape=parallelogram, tool_command="echo ran >> ${marks}"]
    exit [shape=Msquare]
    start -> work -> exit
  }`;

  it('the cancel committed first: the worker does not take the run', async () => {
    const url = await cluster.createDatabase('cancelfirst');
    const marks = path.join(tempDir(), 'marks');
    const server = await testServer({ store: url, allowTools: true });
    const worker = await handWorker(url, (runs) => runs);
    const { body: run } = await server.json('POST', '/pipelines', {
      dot_source: pipeline(marks),
      scenario: {},
    });
    const { status, body } = await server.json('POST', `/pipelines/${run.id}/cancel`);
    expect([status, body.status]).toEqual([200, 'cancelled']);
    // The job the submission scheduled reaches the worker now.
    await worker.execute(run.id);
    expect(existsSync(marks)).toBe(false);
    expect(await stored(url, run.id)).toEqual({ status: 'cancelled', events: 0 });
  }, 60_000);

  it('the worker took the run first: the cancel reaches it before the run starts, and no node runs', async () => {
    const url = await cluster.createDatabase('takefirst');
    const marks = path.join(tempDir(), 'marks');
    const server = await testServer({ store: url, allowTools: true });
    let cancelled: Promise<{ status: number; body: { status: string } }> | undefined;
    const worker = await handWorker(url, (runs, store) => ({
      ...runs,
      // Between the worker's take and its start of the run, the server is asked to cancel it; the
      // worker goes on once the cancel's notification has reached it.
      take: async (id) => {
        const taken = await runs.take(id);
        const heard = new Promise<void>((resolve) =>
          store.onCancelRequested((got) => got === id && resolve()),
        );
        const answer = server.json('POST', `/pipelines/${id}/cancel`);
        cancelled = answer;
        // A server that answers before its cancel reached the worker has left the worker to start the run.
        let told = false;
        await Promise.race([
          heard.then(() => {
            told = true;
          }),
          answer.then(({ body }) => {
            if (!told)
              throw new Error(`the server answered the cancel (${body.status}) without telling the worker`);
          }),
        ]);
        return taken;
      },
    }));
    const { body: run } = await server.json('POST', '/pipelines', {
      dot_source: pipeline(marks),
      scenario: {},
    });
    await worker.execute(run.id);
    const answer = await cancelled;
    expect([answer?.status, answer?.body.status]).toEqual([200, 'cancelled']);
    expect(existsSync(marks)).toBe(false);
    expect(await stored(url, run.id)).toEqual({ status: 'cancelled', events: 0 });
    expect(server.manager.get(run.id).status).toBe('cancelled');
  }, 60_000);
});
