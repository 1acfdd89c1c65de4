import path from 'node:path';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { PostgresRunStore } from '../../../src/server/postgres/postgres-run-store.js';
import { RunQueue } from '../../../src/server/postgres/run-queue.js';
import { serverSandbox } from '../../../src/shared/sandbox/server-sandbox.js';
import { startWorker } from '../../../src/worker/start-worker.js';
import { ensureDist } from '../../helpers/ensure-dist.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { testServer, waitFor } from '../server-fixtures.js';
import { machinesForEachTest, readFileOrEmpty } from './machines-fixtures.js';

const cluster = postgresClusterForFile(180_000);
const { clients, workers, workerProcess } = machinesForEachTest();

describe.runIf(PG_AVAILABLE || PG_REQUIRED)('a worker killed mid-run', () => {
  beforeAll(() => {
    ensureDist();
  }, 180_000);

  it('its run continues on another worker from the checkpoint within the lease; no completed node runs again', async () => {
    const url = await cluster.createDatabase('failover');
    const marks = path.join(tempDir(), 'marks');
    const twoStarted = path.join(tempDir(), 'two-started');
    const dot = `digraph f {
      // The marks are watched from outside the working folder, and a dead worker's tool must outlive it:
      // both are what sandbox="off" (on workers started --unsandboxed) allows.
      sandbox="off"
      start [shape=Mdiamond]
      one [shape=parallelogram, tool_command="echo one >> ${marks}"]
      two [shape=parallelogram, tool_command="echo >> ${twoStarted}; sleep 3 && echo two >> ${marks}"]
      three [shape=parallelogram, tool_command="echo three >> ${marks}"]
      exit [shape=Msquare]
      start -> one -> two -> three -> exit
    }`;
    const server = await testServer({ store: url, allowTools: true });
    const machine = tempDir();
    const doomed = workerProcess(url, machine, 3, ['--unsandboxed']);
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    clients.push(db);
    const { body: run } = await server.json('POST', '/pipelines', { dot_source: dot, scenario: {} });
    expect(run.id).toBeDefined();
    // `one` is done and `two` under way on the doomed worker.
    await waitFor(() => (readFileOrEmpty(twoStarted) !== '' ? true : undefined), 'node two to start', 20_000);
    // The store writes behind (docs/decisions/0222-postgresql-store-writes-behind.md): a step is safe from
    // a kill once its checkpoint is committed, so the kill waits for the database to hold `one` done.
    await waitFor(
      async () => {
        const { rows } = await db.query<{ done: string[] }>(
          "select checkpoint->'completed_nodes' as done from attractor.checkpoints where run_id = $1",
          [run.id],
        );
        return rows[0]?.done.includes('one') ? true : undefined;
      },
      'the checkpoint after node one in the database',
      20_000,
    );
    expect(readFileOrEmpty(marks)).toBe('one\n');
    doomed.kill('SIGKILL');
    const killedAt = Date.now();
    // The machine's next worker (a supervisor restarted it) stops the tool command the dead one left
    // running; the run itself is taken over by whichever worker the lease job reaches.
    const survivor = await startWorker({
      store: url,
      dataDir: machine,
      sandbox: serverSandbox(true, undefined, 'worker'),
      concurrency: 2,
      allowTools: true,
      leaseMs: 3_000,
    });
    workers.push(survivor);
    const done = await waitFor(
      async () => {
        const { body } = await server.json('GET', `/pipelines/${run.id}`);
        return ['completed', 'failed', 'cancelled'].includes(body.status) ? body : undefined;
      },
      'the run to finish on the other worker',
      30_000,
    );
    expect(done.status).toBe('completed');
    // Within the lease (3 s) and the time `two` takes again (3 s), with room for a loaded machine.
    expect(Date.now() - killedAt).toBeLessThan(15_000);
    // `one` had completed: it did not run again; the interrupted `two` ran again, to completion once
    // (the dead worker's copy of it was stopped before it wrote).
    expect(readFileOrEmpty(marks).trim().split('\n')).toEqual(['one', 'two', 'three']);
  }, 90_000);

  it('a worker whose run another worker took over stops it at once and writes nothing more of it', async () => {
    const url = await cluster.createDatabase('fenced');
    const marks = path.join(tempDir(), 'marks');
    const dot = `digraph f {
      // The marks are watched from outside the working folder, and a dead worker's tool must outlive it:
      // both are what sandbox="off" (on workers started --unsandboxed) allows.
      sandbox="off"
      start [shape=Mdiamond]
      one [shape=parallelogram, tool_command="echo one >> ${marks}"]
      two [shape=parallelogram, tool_command="sleep 3 && echo two >> ${marks}"]
      three [shape=parallelogram, tool_command="echo three >> ${marks}"]
      exit [shape=Msquare]
      start -> one -> two -> three -> exit
    }`;
    const server = await testServer({ store: url, allowTools: true });
    const dataDir = tempDir();
    const worker = await startWorker({
      store: url,
      dataDir,
      sandbox: serverSandbox(true, undefined, 'worker'),
      concurrency: 1,
      allowTools: true,
      leaseMs: 3_000,
    });
    workers.push(worker);
    const { body: run } = await server.json('POST', '/pipelines', { dot_source: dot, scenario: {} });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const other = await PostgresRunStore.open(url, tempDir());
    const otherQueue = await RunQueue.open(url);
    try {
      const events = async () =>
        (
          await client.query<{ kind: string; node_id: string | null }>(
            "SELECT event->>'kind' AS kind, event->>'node_id' AS node_id FROM attractor.events WHERE run_id = $1 ORDER BY seq",
            [run.id],
          )
        ).rows;
      await waitFor(
        async () =>
          (await events()).some((e) => e.kind === 'node.start' && e.node_id === 'two') ? true : undefined,
        'node two to start',
        20_000,
      );
      // Another worker takes the run over, as it does when the run's lease fires, and holds its lease.
      await other.refresh(run.id);
      expect(await other.owners.take(run.id)).toBeTypeOf('number');
      const release = otherQueue.holdLease(run.id, 60_000, () => {});
      const before = await events();
      const takenAt = Date.now();
      // The first worker hears it within a third of its lease (each renewal asks) and stops the run.
      const local = path.join(dataDir, 'runs', run.id, 'run', 'events.jsonl');
      await waitFor(
        () => (readFileOrEmpty(local).includes('"pipeline.finalize"') ? true : undefined),
        'the first worker to stop the run',
        15_000,
      );
      expect(Date.now() - takenAt).toBeLessThan(10_000);
      // `two`'s command was killed before it wrote (it would have by now), and nothing reached the database.
      await new Promise((resolve) => setTimeout(resolve, 3_500));
      expect(readFileOrEmpty(marks).trim().split('\n')).toEqual(['one']);
      expect(await events()).toEqual(before);
      const { rows } = await client.query<{ status: string; attempt: number }>(
        'SELECT status, attempt FROM attractor.runs WHERE id = $1',
        [run.id],
      );
      expect(rows).toEqual([{ status: 'running', attempt: 2 }]);
      await release();
    } finally {
      await client.end();
      await other.close();
      await otherQueue.close();
    }
  }, 90_000);
});
