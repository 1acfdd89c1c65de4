import { afterEach, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../../../src/worker/start-worker.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { closeServers, readSse, type TestServer, testServer, waitFor } from '../server-fixtures.js';

const cluster = postgresClusterForFile();
let databases = 0;
const workers: RunningWorker[] = [];

afterEach(async () => {
  await closeServers();
  for (const worker of workers.splice(0)) await worker.drain(1_000);
});

/** Two servers (A takes submissions, B never saw them) and a worker, on one fresh database. */
async function setUp(allowTools = false): Promise<{ a: TestServer; b: TestServer }> {
  const url = await cluster.createDatabase(`any_${++databases}`);
  const a = await testServer({ store: url, allowTools });
  const b = await testServer({ store: url, allowTools });
  workers.push(await startWorker({ store: url, dataDir: tempDir(), concurrency: 2, allowTools }));
  return { a, b };
}

async function untilStatus(server: TestServer, id: string, status: string) {
  return waitFor(
    async () => {
      const { body } = await server.json('GET', `/pipelines/${id}`);
      return body.status === status ? body : undefined;
    },
    `run ${id} to be ${status} on ${server.url}`,
    20_000,
  );
}

// Two gates, so the stream has events before, between and after the answers given through B.
const TWO_GATES = `digraph two {
  start [shape=Mdiamond]
  plan [prompt="Plan"]
  first [shape=hexagon, label="Go on?"]
  build [prompt="Build"]
  second [shape=hexagon, label="Ship?"]
  exit [shape=Msquare]
  start -> plan -> first
  first -> build [label="[Y] Yes"]
  first -> exit [label="[N] No"]
  build -> second
  second -> exit [label="[S] Ship"]
}`;

describe.runIf(PG_AVAILABLE || PG_REQUIRED)('any server, any run', () => {
  it('a server that did not take the run lists it waiting, answers its gates and streams it live, Last-Event-ID included', async () => {
    const { a, b } = await setUp();
    const { body: run } = await a.json('POST', '/pipelines', { dot_source: TWO_GATES, dry_run: true });
    await untilStatus(b, run.id, 'waiting');
    expect((await b.json('GET', '/pipelines?status=waiting')).body.pipelines).toEqual([
      expect.objectContaining({ id: run.id, status: 'waiting' }),
    ]);
    // B streams while the run goes on: live events reach it by LISTEN/NOTIFY, up to the end.
    const streaming = readSse(`${b.url}/pipelines/${run.id}/events`, {
      until: (m) => m.data['kind'] === 'done',
    });
    for (const gate of ['first', 'second']) {
      const question = await waitFor(async () => {
        const { body } = await b.json('GET', `/pipelines/${run.id}/questions`);
        return body.find((q: { stage: string }) => q.stage === gate);
      }, `gate ${gate} on B`);
      const { status } = await b.json('POST', `/pipelines/${run.id}/questions/${question.id}/answer`, {
        answer: gate === 'first' ? 'Y' : 'S',
      });
      expect(status).toBe(200);
    }
    const streamed = (await streaming).filter((m) => m.data['kind'] !== 'done');
    await untilStatus(a, run.id, 'completed');
    await a.manager.persisted();
    // Exactly what A streams from the database afterwards, numbered alike.
    const fromA = (
      await readSse(`${a.url}/pipelines/${run.id}/events`, { until: (m) => m.data['kind'] === 'done' })
    ).filter((m) => m.data['kind'] !== 'done');
    expect(streamed.map((m) => m.data)).toEqual(fromA.map((m) => m.data));
    expect(streamed.map((m) => m.id)).toEqual(fromA.map((_, i) => i + 1));
    expect(fromA.map((m) => m.data['kind'])).toContain('pipeline.complete');
    // A reconnect to B with Last-Event-ID gets the rest and only the rest.
    const resumed = (
      await readSse(`${b.url}/pipelines/${run.id}/events`, {
        headers: { 'last-event-id': '5' },
        until: (m) => m.data['kind'] === 'done',
      })
    ).filter((m) => m.data['kind'] !== 'done');
    expect(resumed.map((m) => m.data)).toEqual(fromA.slice(5).map((m) => m.data));
  }, 60_000);

  it('a cancel through a server that did not take the run stops it on its worker within a second', async () => {
    const { a, b } = await setUp(true);
    const { body: run } = await a.json('POST', '/pipelines', {
      dot_source:
        'digraph t { start [shape=Mdiamond]; run [shape=parallelogram, tool_command="sleep 30"]; exit [shape=Msquare]; start -> run -> exit }',
      scenario: {},
    });
    await waitFor(async () => {
      const { body } = await b.json('GET', `/pipelines/${run.id}`);
      return body.status === 'running' && body.current_node === 'run' ? true : undefined;
    }, 'the tool node to start, seen from B');
    const asked = Date.now();
    const { status, body } = await b.json('POST', `/pipelines/${run.id}/cancel`);
    expect(status).toBe(200);
    expect(body.status).toBe('cancelled');
    expect(Date.now() - asked).toBeLessThan(1_500);
    expect((await untilStatus(a, run.id, 'cancelled')).status).toBe('cancelled');
  }, 60_000);
});
