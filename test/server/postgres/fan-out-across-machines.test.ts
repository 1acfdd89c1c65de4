import { existsSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { serverSandbox } from '../../../src/shared/sandbox/server-sandbox.js';
import { startWorker } from '../../../src/worker/start-worker.js';
import { ensureDist } from '../../helpers/ensure-dist.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { testServer, waitFor } from '../server-fixtures.js';
import { machinesForEachTest, readFileOrEmpty } from './machines-fixtures.js';

const cluster = postgresClusterForFile(180_000);
const { clients, workers, workerProcess } = machinesForEachTest();

describe.runIf(PG_AVAILABLE || PG_REQUIRED)('a fan-out continued on another machine', () => {
  beforeAll(() => {
    ensureDist();
  }, 180_000);

  it('runs only its unfinished branches: a branch that finished on the dead worker does not run again', async () => {
    const url = await cluster.createDatabase('fanout');
    const marks = path.join(tempDir(), 'marks');
    const blocked = path.join(tempDir(), 'blocked');
    // `slow` blocks the first time (on the doomed worker) and finishes at once the second time.
    const dot = `digraph fan {
      // The marks are watched from outside the working folder, and a dead worker's tool must outlive it:
      // both are what sandbox="off" (on workers started --unsandboxed) allows.
      sandbox="off"
      start [shape=Mdiamond]
      split [shape=component, join_policy="wait_all"]
      fast [shape=parallelogram, tool_command="echo fast >> ${marks}"]
      slow [shape=parallelogram, tool_command="echo slow >> ${marks}; if [ -e ${blocked} ]; then exit 0; fi; touch ${blocked}; sleep 20"]
      join [shape=tripleoctagon]
      after [shape=parallelogram, tool_command="echo after >> ${marks}"]
      exit [shape=Msquare]
      start -> split
      split -> fast
      split -> slow
      fast -> join
      slow -> join
      join -> after -> exit
    }`;
    const server = await testServer({ store: url, allowTools: true });
    const doomed = workerProcess(url, tempDir(), 3, ['--unsandboxed']);
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    clients.push(db);
    const { body: run } = await server.json('POST', '/pipelines', { dot_source: dot, scenario: {} });
    expect(run.id).toBeDefined();
    // `fast` finished (its branch and then its completion event are in the database) and `slow` is under
    // way on the doomed worker. The event is committed after the branch, so waiting for the branch alone
    // could kill the worker between the two.
    await waitFor(
      async () => {
        const { rows } = await db.query<{ branch: string }>(
          'SELECT branch FROM attractor.branch_results WHERE run_id = $1',
          [run.id],
        );
        const { rowCount: announced } = await db.query(
          "SELECT 1 FROM attractor.events WHERE run_id = $1 AND event->>'kind' = 'parallel.branch.complete'",
          [run.id],
        );
        return rows.map((r) => r.branch).join() === 'fast' && announced === 1 && existsSync(blocked)
          ? true
          : undefined;
      },
      'branch fast to be recorded and announced, and slow to block',
      60_000,
    );
    doomed.kill('SIGKILL');
    // Another machine: a worker with a data folder of its own.
    const other = await startWorker({
      store: url,
      dataDir: tempDir(),
      sandbox: serverSandbox(true, undefined, 'worker'),
      concurrency: 2,
      allowTools: true,
      leaseMs: 3_000,
    });
    workers.push(other);
    const done = await waitFor(
      async () => {
        const { body } = await server.json('GET', `/pipelines/${run.id}`);
        return ['completed', 'failed', 'cancelled'].includes(body.status) ? body : undefined;
      },
      'the run to finish on the other worker',
      60_000,
    );
    expect(done.status).toBe('completed');
    // `fast` ran once (on the dead worker); the interrupted `slow` ran again; the join saw both.
    const lines = readFileOrEmpty(marks).trim().split('\n');
    expect(lines.filter((l) => l === 'fast')).toHaveLength(1);
    expect(lines.filter((l) => l === 'slow')).toHaveLength(2);
    expect(lines.at(-1)).toBe('after');
    const { rows: events } = await db.query<{ event: { kind: string; data: Record<string, unknown> } }>(
      "SELECT event FROM attractor.events WHERE run_id = $1 AND event->>'kind' = 'parallel.branch.complete' ORDER BY seq",
      [run.id],
    );
    const completions = events.map((r) => r.event.data);
    expect(completions.filter((d) => d['branch'] === 'fast')).toEqual([
      expect.objectContaining({ status: 'success' }),
      expect.objectContaining({ status: 'success', restored: true }),
    ]);
    const { rows: checkpoint } = await db.query<{ results: { branch_id: string; status: string }[] }>(
      "SELECT checkpoint->'context'->'parallel.results' AS results FROM attractor.checkpoints WHERE run_id = $1",
      [run.id],
    );
    expect(checkpoint[0]?.results?.map((r) => [r.branch_id, r.status])).toEqual([
      ['fast', 'success'],
      ['slow', 'success'],
    ]);
    // The visit completed: its branches are forgotten, so a later visit would run them all.
    const { rows: left } = await db.query('SELECT 1 FROM attractor.branch_results WHERE run_id = $1', [
      run.id,
    ]);
    expect(left).toEqual([]);
  }, 150_000);
});
