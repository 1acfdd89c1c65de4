/**
 * A run released at its gate is continued (the answer came at once) while the attempt that released it
 * is still letting go: the same worker holds two attempts of one run for a moment. What the earlier
 * attempt's lease does then (lost, released) must not touch the later one.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { PostgresRunStore } from '../../../src/server/postgres/postgres-run-store.js';
import { type RemoteRuns, remoteRuns } from '../../../src/server/postgres/remote-runs.js';
import { RunQueue } from '../../../src/server/postgres/run-queue.js';
import { WorkerRuns } from '../../../src/worker/worker-runs.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { closeServers, testServer, waitFor } from '../server-fixtures.js';

const cluster = postgresClusterForFile();
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  await closeServers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * What a worker uses of the database (its store, and its runs on the queue), for a `WorkerRuns` the
 * test builds itself; closed after the test.
 */
async function workerSide(url: string): Promise<{ store: PostgresRunStore; runs: RemoteRuns }> {
  const store = await PostgresRunStore.open(url, tempDir());
  const queue = await RunQueue.open(url);
  cleanups.push(async () => {
    await queue.close();
    await store.close();
  });
  return { store, runs: remoteRuns(store, queue, 60_000) };
}

async function queryOne<T>(url: string, sql: string, params: unknown[]): Promise<T | undefined> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows[0] as T | undefined;
  } finally {
    await client.end();
  }
}

async function leaseJobs(url: string, id: string): Promise<number> {
  const row = await queryOne<{ n: string }>(
    url,
    'SELECT count(*) AS n FROM graphile_worker.jobs WHERE key = $1',
    [`lease:${id}`],
  );
  return Number(row?.n);
}

/** Execute run `id` as a job the queue retries while the run reads as executing elsewhere. */
async function executeAsJob(worker: WorkerRuns, id: string): Promise<void> {
  for (;;) {
    try {
      return await worker.execute(id);
    } catch (error) {
      if ((error as { code?: string }).code !== 'RUN_BUSY') throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

function gatedToolPipeline(command: string): string {
  // The command writes marks the test watches outside the working folder: outside the sandbox.
  return `digraph g {
    sandbox="off"
    start [shape=Mdiamond]
    gate [shape=hexagon, label="Go?"]
    work [shape=parallelogram, tool_command="${command}"]
    exit [shape=Msquare]
    start -> gate
    gate -> work [label="[Y] Yes"]
    work -> exit
  }`;
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe.runIf(PG_AVAILABLE || PG_REQUIRED)('a continuation taken while the released attempt lets go', () => {
  it("the earlier attempt's lost lease and its release leave the later attempt running, owned and leased", async () => {
    const url = await cluster.createDatabase('lettinggo');
    const dir = tempDir();
    const marks = path.join(dir, 'marks');
    const go = path.join(dir, 'go');
    const server = await testServer({ store: url, allowTools: true });

    // A worker whose jobs the test hands it, and whose first attempt's release waits for the test.
    const { store, runs } = await workerSide(url);
    const lost: Array<() => void> = [];
    let letGo: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    const worker = new WorkerRuns({
      store,
      allowTools: true,
      runs: {
        ...runs,
        holdLease: (id, attempt, onLost) => {
          const release = runs.holdLease(id, attempt, onLost);
          lost.push(() => onLost(new Error('lost')));
          return lost.length === 1 ? async () => held.then(release) : release;
        },
      },
    });

    const { body: run } = await server.json('POST', '/pipelines', {
      dot_source: gatedToolPipeline(`while [ ! -f ${go} ]; do sleep 0.05; done; echo ran >> ${marks}`),
      scenario: {},
    });
    const first = worker.execute(run.id);
    const [question] = await waitFor(
      async () => {
        const { body } = await server.json('GET', `/pipelines/${run.id}/questions`);
        return (await server.json('GET', `/pipelines/${run.id}`)).body.status === 'waiting' && body.length > 0
          ? body
          : undefined;
      },
      'the run to wait at its gate',
      20_000,
    );
    expect(
      (await server.json('POST', `/pipelines/${run.id}/questions/${question.id}/answer`, { answer: 'Y' }))
        .status,
    ).toBe(200);

    // The continuation starts here while the first attempt has not let go yet. A run that still reads
    // as executing is busy: the queue would try the job again, and so does this.
    const second = executeAsJob(worker, run.id);
    await waitFor(
      () => (lost.length === 2 && existsSync(path.join(store.runDirFor(run.id), 'work')) ? true : undefined),
      'the continuation to reach its tool node',
      20_000,
    );
    // The first attempt's lease is lost late (a renewal that failed, a refused write), then it lets go.
    lost[0]?.();
    letGo();
    await first;
    expect(await leaseJobs(url, run.id)).toBe(1);
    expect(await store.owners.owns(run.id)).toBe(true);

    writeFileSync(go, '');
    await second;
    // The server is another process's view: it hears the run's end through the database.
    const after = await waitFor(
      async () => {
        const { body } = await server.json('GET', `/pipelines/${run.id}`);
        return body.status === 'running' ? undefined : body;
      },
      'the server to hear the run end',
      20_000,
    );
    expect(after.status).toBe('completed');
    expect(readFileSync(marks, 'utf8')).toBe('ran\n');
  }, 60_000);

  it('a second job of the run reaching this worker while the continuation takes it waits: the run runs once, with no failure', async () => {
    const url = await cluster.createDatabase('twojobs');
    const marks = path.join(tempDir(), 'marks');
    const server = await testServer({ store: url, allowTools: true });
    const { store, runs } = await workerSide(url);
    // Scripted: the released attempt's look at the run (the 2nd) reads it before it is answered, and
    // returns once the continuation has taken the run; the continuation's checkout (the 2nd) waits
    // until the test lets it go.
    const read = deferred();
    const taken = deferred();
    const checkout = deferred();
    let refreshes = 0;
    let materializes = 0;
    const worker = new WorkerRuns({
      store,
      allowTools: true,
      runs: {
        ...runs,
        refresh: async (id) => {
          if (++refreshes !== 2) return runs.refresh(id);
          const record = await runs.refresh(id);
          read.resolve();
          await taken.promise;
          return record;
        },
        materialize: async (id, runDir) => {
          if (++materializes === 2) {
            taken.resolve();
            await checkout.promise;
          }
          return runs.materialize(id, runDir);
        },
      },
    });

    const { body: run } = await server.json('POST', '/pipelines', {
      dot_source: gatedToolPipeline(`echo ran >> ${marks}`),
      scenario: {},
    });
    const first = worker.execute(run.id);
    await read.promise;
    // The server is another process's view: it hears the question through the database.
    const [question] = await waitFor(
      async () => {
        const { body } = await server.json('GET', `/pipelines/${run.id}/questions`);
        return body.length > 0 ? body : undefined;
      },
      'the server to hear the question',
      20_000,
    );
    await server.json('POST', `/pipelines/${run.id}/questions/${question.id}/answer`, { answer: 'Y' });
    // The answer's job: it takes the run before the released attempt acts on what it read, which is
    // stale by then (the run was waiting; its answer is known here now).
    const second = executeAsJob(worker, run.id);
    await taken.promise;
    await first;
    // The released attempt does not requeue the run the continuation is running.
    const row = await queryOne<{ status: string }>(url, 'SELECT status FROM attractor.runs WHERE id = $1', [
      run.id,
    ]);
    expect(row?.status).toBe('running');
    // A third job of the run: it waits for the continuation before it looks at the run at all.
    const third = executeAsJob(worker, run.id);
    expect(refreshes).toBe(3);
    checkout.resolve();
    await Promise.all([second, third]);
    expect(store.get(run.id)).toMatchObject({ status: 'completed' });
    expect(store.get(run.id)).not.toHaveProperty('failure');
    expect(readFileSync(marks, 'utf8')).toBe('ran\n');
  }, 60_000);
});
