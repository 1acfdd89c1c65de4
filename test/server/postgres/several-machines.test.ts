import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { startWorker } from '../../../src/worker/start-worker.js';
import { ensureDist } from '../../helpers/ensure-dist.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { readSse, type TestServer, testServer, waitFor } from '../server-fixtures.js';
import { machinesForEachTest } from './machines-fixtures.js';

const TOOLS = `digraph tools {
  start [shape=Mdiamond]
  build [shape=parallelogram, tool_command="sleep 1"]
  check [shape=parallelogram, tool_command="true"]
  exit [shape=Msquare]
  start -> build -> check -> exit
}`;

const FAN_OUT = `digraph fan {
  start [shape=Mdiamond]
  split [shape=component, join_policy="wait_all"]
  a [shape=parallelogram, tool_command="sleep 1"]
  b [shape=parallelogram, tool_command="true"]
  join [shape=tripleoctagon]
  after [shape=parallelogram, tool_command="true"]
  exit [shape=Msquare]
  start -> split
  split -> a
  split -> b
  a -> join
  b -> join
  join -> after -> exit
}`;

const GATE = `digraph gate {
  start [shape=Mdiamond]
  prepare [shape=parallelogram, tool_command="sleep 0.5"]
  review [shape=hexagon, label="Ship it?"]
  ship [shape=parallelogram, tool_command="true"]
  hold [shape=parallelogram, tool_command="true"]
  exit [shape=Msquare]
  start -> prepare -> review
  review -> ship [label="[S] Ship"]
  review -> hold [label="[H] Hold"]
  ship -> exit
  hold -> exit
}`;

const cluster = postgresClusterForFile(180_000);
const { clients: probes, workers, workerProcess } = machinesForEachTest();

describe.runIf(PG_AVAILABLE || PG_REQUIRED)('two servers and two workers on one PostgreSQL', () => {
  beforeAll(() => {
    ensureDist();
  }, 180_000);

  it('twenty runs complete though a worker is SIGKILLed; any server streams, answers and lists them', async () => {
    const url = await cluster.createDatabase('machines');
    const a = await testServer({ store: url, allowTools: true });
    const b = await testServer({ store: url, allowTools: true });
    const doomed = workerProcess(url, tempDir(), 3, ['--concurrency', '4']);
    const probe = new pg.Client({ connectionString: url });
    await probe.connect();
    probes.push(probe);
    // Ready when it keeps its own lease (the job another worker unlocks its jobs on if it dies), which
    // names its graphile-worker ids.
    const doomedIds = await waitFor(
      async () => {
        const { rows } = await probe
          .query<{ payload: { worker_ids: string[] } }>(
            `SELECT j.payload FROM graphile_worker._private_jobs j
             JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = 'attractor_worker_alive'`,
          )
          .catch(() => ({ rows: [] }));
        return rows[0]?.payload.worker_ids;
      },
      'the doomed worker to start',
      120_000,
    );
    const heldByDoomed = async (): Promise<number> => {
      const { rows } = await probe.query<{ n: string }>(
        'SELECT count(*) AS n FROM graphile_worker._private_jobs WHERE locked_by = ANY($1)',
        [doomedIds],
      );
      return Number(rows[0]?.n);
    };

    const kinds = [...Array(7).fill(TOOLS), ...Array(7).fill(FAN_OUT), ...Array(6).fill(GATE)] as string[];
    const ids: string[] = [];
    for (const [i, dot] of kinds.entries()) {
      const server = i % 2 === 0 ? a : b;
      const { status, body } = await server.json('POST', '/pipelines', { dot_source: dot, scenario: {} });
      expect(status, JSON.stringify(body)).toBe(201);
      ids.push(body.id);
    }
    // Alone at first, the doomed worker takes runs; then the survivor starts and takes the others.
    await waitFor(
      async () => ((await heldByDoomed()) >= 2 ? true : undefined),
      'the doomed worker to take runs',
      120_000,
    );
    const survivor = await startWorker({
      store: url,
      dataDir: tempDir(),
      concurrency: 4,
      allowTools: true,
      leaseMs: 3_000,
    });
    workers.push(survivor);
    // Killed mid-run: while it holds runs' jobs.
    await waitFor(
      async () => ((await heldByDoomed()) >= 1 ? true : undefined),
      'the doomed worker to hold a run',
      120_000,
    );
    doomed.kill('SIGKILL');

    // Every gate is answered through server B, whichever server took the run and whichever worker asks.
    const finished = async (server: TestServer): Promise<boolean> => {
      const { body } = await server.json('GET', '/pipelines?limit=100');
      for (const run of body.pipelines as { id: string; status: string }[]) {
        if (run.status !== 'waiting') continue;
        const { body: questions } = await b.json('GET', `/pipelines/${run.id}/questions`);
        for (const q of questions as { id: string }[])
          await b.json('POST', `/pipelines/${run.id}/questions/${q.id}/answer`, { answer: 'S' });
      }
      return (body.pipelines as { status: string }[]).every((r) => r.status === 'completed');
    };
    await waitFor(
      async () => ((await finished(a)) ? true : undefined),
      'every run to complete',
      180_000,
    ).catch(async (error) => {
      const { body } = await a.json('GET', '/pipelines?limit=100');
      console.log(
        JSON.stringify(
          body.pipelines.map((p: { status: string; name: string; failure?: unknown }) => [
            p.name,
            p.status,
            p.failure,
          ]),
        ),
      );
      throw error;
    });

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (const id of ids) {
        const { rows } = await client.query<{
          event: { kind: string; node_id?: string; data?: Record<string, unknown> };
        }>('SELECT event FROM attractor.events WHERE run_id = $1 ORDER BY seq', [id]);
        // Streamed from the other server (runs submitted to A are read from B and the other way round).
        const other = ids.indexOf(id) % 2 === 0 ? b : a;
        const streamed = await readSse(`${other.url}/pipelines/${id}/events`, {
          until: (m) => m.data['kind'] === 'done',
        });
        expect(streamed.at(-1)?.data).toEqual({ kind: 'done', status: 'completed' });
        expect(streamed.slice(0, -1).map((m) => m.data)).toEqual(rows.map((r) => r.event));
        // No node that had completed started again, inside a fan-out's branches too: the workers have
        // data folders of their own, so a fan-out continued on the other one found its finished
        // branches in the database.
        const completed = new Set<string>();
        for (const { event } of rows) {
          if (!event.node_id) continue;
          const branch = event.data?.['branch'];
          const node = branch === undefined ? event.node_id : `${String(branch)}/${event.node_id}`;
          if (event.kind === 'node.start')
            expect(completed.has(node), `${id}: ${node} ran again`).toBe(false);
          if (event.kind === 'node.complete') completed.add(node);
        }
      }
      const { rows: gates } = await client.query<{ n: string }>(
        "SELECT count(*) AS n FROM attractor.events WHERE event->>'kind' = 'node.complete' AND event->>'node_id' = 'ship'",
      );
      expect(Number(gates[0]?.n)).toBe(6);
    } finally {
      await client.end();
    }
  }, 480_000);
});
