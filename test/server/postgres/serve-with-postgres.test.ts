import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../../../src/server/start-server.js';
import { type RunningWorker, startWorker } from '../../../src/worker/start-worker.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { closeServers, GATE_PIPELINE, readSse, testServer, waitFor } from '../server-fixtures.js';

const cluster = postgresClusterForFile();
let databases = 0;
const freshDatabase = async (): Promise<string> => {
  return cluster.createDatabase(`serve_${++databases}`);
};

const workers: RunningWorker[] = [];
afterEach(async () => {
  await closeServers();
  for (const worker of workers.splice(0)) await worker.drain(1_000);
});

/** A worker in this process on the store at `url` (its run directories in a temp folder). */
async function worker(url: string, allowTools = false): Promise<RunningWorker> {
  const started = await startWorker({ store: url, dataDir: tempDir(), concurrency: 4, allowTools });
  workers.push(started);
  return started;
}

describe.runIf(PG_AVAILABLE || PG_REQUIRED)('attractor serve --store postgres://…', () => {
  it('runs a gated pipeline and keeps its record, events, checkpoint, stages and answer in the database', async () => {
    // Empty: the server and the worker set up the store's schema and the queue's tables themselves.
    const url = await cluster.createDatabase('serve_new', { empty: true });
    const server = await testServer({ store: url });
    await worker(url);
    const { status, body: run } = await server.json('POST', '/pipelines', {
      dot_source: GATE_PIPELINE,
      dry_run: true,
    });
    expect(status).toBe(201);
    const question = await waitFor(async () => {
      const { body } = await server.json('GET', `/pipelines/${run.id}/questions`);
      return body[0];
    }, 'the gate');
    // The gate holds no worker: the run is checkpointed and waits, its question still pending.
    await waitFor(async () => {
      const { body } = await server.json('GET', `/pipelines/${run.id}`);
      return body.status === 'waiting' ? true : undefined;
    }, 'the run to wait');
    expect((await server.json('GET', '/pipelines?status=waiting')).body.pipelines).toHaveLength(1);
    await server.json('POST', `/pipelines/${run.id}/questions/${question.id}/answer`, { answer: 'S' });
    const done = await waitFor(async () => {
      const { body } = await server.json('GET', `/pipelines/${run.id}`);
      return body.status === 'completed' ? body : undefined;
    }, 'the run to complete');
    expect(done.status).toBe('completed');
    await server.manager.persisted();

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows: runs } = await client.query('SELECT status, record FROM attractor.runs');
      expect(runs).toEqual([expect.objectContaining({ status: 'completed' })]);
      // The database holds exactly the events the run directory's log holds, in order.
      const { rows: events } = await client.query<{ event: unknown }>(
        'SELECT event FROM attractor.events WHERE run_id = $1 ORDER BY seq',
        [run.id],
      );
      const runDir = runs[0].record.run_dir as string;
      const logged = readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(events.map((e) => e.event)).toEqual(logged);
      expect(logged.map((e) => e.kind)).toContain('pipeline.complete');
      const { rows: checkpoints } = await client.query('SELECT checkpoint FROM attractor.checkpoints');
      expect(checkpoints[0].checkpoint).toEqual(
        JSON.parse(readFileSync(path.join(runDir, 'checkpoint.json'), 'utf8')),
      );
      const { rows: stages } = await client.query<{ stage: string; status: { outcome: string } }>(
        'SELECT stage, status FROM attractor.stages WHERE run_id = $1 ORDER BY stage',
        [run.id],
      );
      expect(stages.map((s) => s.stage)).toEqual(expect.arrayContaining(['plan', 'review', 'ship']));
      expect(stages.find((s) => s.stage === 'review')?.status.outcome).toBe('success');
      // The server streams exactly the stored events, numbered by their sequence; Last-Event-ID resumes.
      const streamed = await readSse(`${server.url}/pipelines/${run.id}/events`, {
        until: (m) => m.data['kind'] === 'done',
      });
      const streamedEvents = streamed.filter((m) => m.data['kind'] !== 'done');
      expect(streamedEvents.map((m) => m.data)).toEqual(events.map((e) => e.event));
      expect(streamedEvents.map((m) => m.id)).toEqual(events.map((_, i) => i + 1));
      const resumed = await readSse(`${server.url}/pipelines/${run.id}/events`, {
        headers: { 'last-event-id': '3' },
        until: (m) => m.data['kind'] === 'done',
      });
      expect(resumed[0]?.id).toBe(4);
      const { rows: questions } = await client.query('SELECT questions FROM attractor.questions');
      // A finished run has no pending question left.
      expect(questions).toEqual([{ questions: [] }]);
    } finally {
      await client.end();
    }
  });

  it('a server on the same database with another data folder lists the run: the database is the record', async () => {
    const url = await freshDatabase();
    const first = await testServer({ store: url });
    await worker(url);
    const { body: run } = await first.json('POST', '/pipelines', {
      dot_source: GATE_PIPELINE,
      dry_run: true,
      auto_approve: true,
    });
    await waitFor(async () => {
      const { body } = await first.json('GET', `/pipelines/${run.id}`);
      return body.status === 'completed' ? true : undefined;
    }, 'the run to complete');
    await first.manager.persisted();
    const second = await testServer({ store: url });
    expect(second.dataDir).not.toBe(first.dataDir);
    const { body } = await second.json('GET', '/pipelines');
    expect(body.pipelines.map((p: { id: string; status: string }) => [p.id, p.status])).toEqual([
      [run.id, 'completed'],
    ]);
  });

  it('a cancel on the server stops the run on its worker within a second', async () => {
    const url = await freshDatabase();
    const server = await testServer({ store: url, allowTools: true });
    await worker(url, true);
    const { body: run } = await server.json('POST', '/pipelines', {
      dot_source:
        'digraph t { start [shape=Mdiamond]; run [shape=parallelogram, tool_command="sleep 30"]; exit [shape=Msquare]; start -> run -> exit }',
      // A simulated model, real tools.
      scenario: {},
    });
    expect(run.id).toBeDefined();
    await waitFor(async () => {
      const { body } = await server.json('GET', `/pipelines/${run.id}`);
      return body.status === 'running' ? true : undefined;
    }, 'the run to start');
    // Its tool node is under way (the worker records the start before running it).
    await waitFor(async () => {
      const { body } = await server.json('GET', `/pipelines/${run.id}`);
      return body.event_count >= 3 ? true : undefined;
    }, 'the tool node to start');
    const asked = Date.now();
    const { status, body } = await server.json('POST', `/pipelines/${run.id}/cancel`);
    expect(status).toBe(200);
    expect(body.status).toBe('cancelled');
    expect(Date.now() - asked).toBeLessThan(1_500);
  });

  it('refuses a store that is not a PostgreSQL URL, and one it cannot reach, in one sentence', async () => {
    await expect(startServer({ port: 0, store: 'mysql://localhost/x' })).rejects.toMatchObject({
      code: 'BAD_SERVER_OPTION',
      message: expect.stringContaining('a store is a PostgreSQL URL'),
    });
    const unreachable = `postgres://postgres@localhost:1/none?host=${encodeURIComponent('/nonexistent-socket-dir')}`;
    await expect(startServer({ port: 0, store: unreachable })).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
    });
  });
});
