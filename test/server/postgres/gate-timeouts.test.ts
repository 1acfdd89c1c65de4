import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../../../src/worker/start-worker.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { closeServers, type TestServer, testServer, waitFor } from '../server-fixtures.js';

/** A gate that takes `ship` when nobody answers within `timeout`. */
const timedGate = (timeout: string): string => `digraph timed {
  start [shape=Mdiamond]
  plan [prompt="Plan"]
  review [shape=hexagon, label="Ship it?", human.timeout="${timeout}", human.default_choice="ship"]
  ship [prompt="Ship"]
  rework [prompt="Rework"]
  exit [shape=Msquare]
  start -> plan -> review
  review -> ship [label="[S] Ship"]
  review -> rework [label="[R] Rework"]
  ship -> exit
  rework -> exit
}`;

interface StoredEvent {
  kind: string;
  node_id?: string;
  data: Record<string, unknown>;
  timestamp: string;
}

const cluster = postgresClusterForFile();
let databases = 0;
const workers: RunningWorker[] = [];
const clients: pg.Client[] = [];

afterEach(async () => {
  await closeServers();
  for (const worker of workers.splice(0)) await worker.drain(1_000);
  for (const client of clients.splice(0)) await client.end();
});

async function setUp(): Promise<{ url: string; db: pg.Client; server: TestServer }> {
  const url = await cluster.createDatabase(`gates_${++databases}`);
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  clients.push(db);
  return { url, db, server: await testServer({ store: url }) };
}

async function worker(url: string, dataDir = tempDir()): Promise<RunningWorker> {
  const started = await startWorker({ store: url, dataDir, concurrency: 2, allowTools: false });
  workers.push(started);
  return started;
}

async function storedEvents(db: pg.Client, id: string): Promise<StoredEvent[]> {
  const { rows } = await db.query<{ event: StoredEvent }>(
    'SELECT event FROM attractor.events WHERE run_id = $1 ORDER BY seq',
    [id],
  );
  return rows.map((r) => r.event);
}

async function untilStatus(server: TestServer, id: string, status: string, ms = 20_000) {
  return waitFor(
    async () => {
      const { body } = await server.json('GET', `/pipelines/${id}`);
      return body.status === status ? body : undefined;
    },
    `run ${id} to be ${status}`,
    ms,
  );
}

/** When the run's pending question was first asked (kept in the database; the API does not show it). */
async function askedAt(db: pg.Client, id: string): Promise<number> {
  const { rows } = await db.query<{ questions: { asked_at: string }[] }>(
    'SELECT questions FROM attractor.questions WHERE run_id = $1',
    [id],
  );
  const asked = rows[0]?.questions[0]?.asked_at;
  if (!asked) throw new Error(`run ${id} has no stored question`);
  return Date.parse(asked);
}

/** The run's job on graphile-worker's queue (its continuation or its gate's timeout), if any. */
async function runJob(db: pg.Client, id: string): Promise<{ run_at: Date } | undefined> {
  const { rows } = await db.query<{ run_at: Date }>(
    'SELECT run_at FROM graphile_worker.jobs WHERE key = $1',
    [`run:${id}`],
  );
  return rows[0];
}

/** The run's job once it is one due after `after` (the release schedules it just after it commits). */
function delayedJob(db: pg.Client, id: string, after: number): Promise<{ run_at: Date }> {
  return waitFor(async () => {
    const job = await runJob(db, id);
    return job && job.run_at.getTime() > after ? job : undefined;
  }, `a delayed job of run ${id}`);
}

/**
 * From the gate's timeout on: what the default made the run do. (Before it, a continued run's events
 * say it resumed and re-entered the gate, as a resume in one process does.)
 */
function fromTimeout(events: readonly StoredEvent[]): StoredEvent[] {
  return events.slice(events.findIndex((e) => e.kind === 'interview.timeout'));
}

describe.runIf(PG_AVAILABLE || PG_REQUIRED)('gate timeouts on workers are delayed jobs', () => {
  it('a released gate takes its default at its deadline, with the events and answer of a one-process run', async () => {
    const { url, db, server } = await setUp();
    await worker(url);
    const { body: run } = await server.json('POST', '/pipelines', {
      dot_source: timedGate('2s'),
      dry_run: true,
    });
    await untilStatus(server, run.id, 'waiting');
    const [question] = (await server.json('GET', `/pipelines/${run.id}/questions`)).body;
    await server.manager.persisted();
    const asked = await askedAt(db, run.id);
    expect(question.timeout_seconds).toBe(2);
    // The release left a delayed job at the gate's deadline, measured from when the gate asked.
    const job = await delayedJob(db, run.id, asked);
    expect(job.run_at.getTime()).toBe(asked + 2_000);

    const done = await untilStatus(server, run.id, 'completed');
    expect(Date.parse(done.ended_at)).toBeGreaterThanOrEqual(asked + 2_000);
    await server.manager.persisted();
    const events = await storedEvents(db, run.id);
    // Released once, continued once by the timeout job.
    expect(events.filter((e) => e.kind === 'pipeline.cancelled')).toHaveLength(1);
    expect(events.filter((e) => e.kind === 'interview.timeout')).toEqual([
      expect.objectContaining({ node_id: 'review', data: { default_choice: 'ship', selected: 'S' } }),
    ]);
    expect(events.some((e) => e.kind === 'node.start' && e.node_id === 'ship')).toBe(true);
    expect(done.current_node).toBe('exit');
    const { rows: stages } = await db.query<{ status: unknown }>(
      `SELECT status FROM attractor.stages WHERE run_id = $1 AND stage = 'review'`,
      [run.id],
    );
    // Nothing is left to fire: the timeout job was the one that ran.
    expect(await runJob(db, run.id)).toBeUndefined();

    // The same pipeline in one process (the file store): the same events from the timeout on, the same record.
    const local = await testServer();
    const { body: localRun } = await local.json('POST', '/pipelines', {
      dot_source: timedGate('2s'),
      dry_run: true,
    });
    const localDone = await untilStatus(local, localRun.id, 'completed');
    const localEvents = readFileSync(path.join(localDone.run_dir, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as StoredEvent);
    const shape = (e: StoredEvent) => ({ kind: e.kind, node_id: e.node_id });
    expect(fromTimeout(events).map(shape)).toEqual(fromTimeout(localEvents).map(shape));
    const dataOf = (list: StoredEvent[], kind: string) => list.find((e) => e.kind === kind)?.data;
    expect(dataOf(events, 'interview.timeout')).toEqual(dataOf(localEvents, 'interview.timeout'));
    expect(stages[0]?.status).toEqual(
      JSON.parse(readFileSync(path.join(localDone.run_dir, 'review', 'status.json'), 'utf8')),
    );
    // The question is closed as timed out in the run directory's answer channel, as in one process.
    const closed = (dir: string) =>
      JSON.parse(readFileSync(path.join(dir, 'answers', 'review-1.json'), 'utf8')).closed;
    expect(closed(done.run_dir)).toBe('timed_out');
    expect(closed(localDone.run_dir)).toBe('timed_out');
  }, 60_000);

  it('an answer before the deadline replaces the timeout job: the default never applies afterwards', async () => {
    const { url, db, server } = await setUp();
    await worker(url);
    const { body: run } = await server.json('POST', '/pipelines', {
      dot_source: timedGate('3s'),
      dry_run: true,
    });
    await untilStatus(server, run.id, 'waiting');
    const [question] = (await server.json('GET', `/pipelines/${run.id}/questions`)).body;
    await server.manager.persisted();
    const asked = await askedAt(db, run.id);
    expect((await delayedJob(db, run.id, asked)).run_at.getTime()).toBe(asked + 3_000);
    const answered = await server.json('POST', `/pipelines/${run.id}/questions/${question.id}/answer`, {
      answer: 'R',
    });
    expect(answered.status).toBe(200);
    await untilStatus(server, run.id, 'completed');
    await server.manager.persisted();
    const count = (await storedEvents(db, run.id)).length;
    // Past the deadline: no job left, nothing more happened to the run.
    const deadline = asked + 3_000;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now()) + 1_500));
    expect(await runJob(db, run.id)).toBeUndefined();
    const events = await storedEvents(db, run.id);
    expect(events).toHaveLength(count);
    expect(events.some((e) => e.kind === 'interview.timeout')).toBe(false);
    expect(events.filter((e) => e.kind === 'interview.complete')).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ key: 'R' }) }),
    ]);
    expect(events.some((e) => e.kind === 'node.start' && e.node_id === 'rework')).toBe(true);
    expect(events.some((e) => e.kind === 'node.start' && e.node_id === 'ship')).toBe(false);
  }, 60_000);

  it('the deadline runs from when the gate opened: a worker that never saw the gate takes the default at once', async () => {
    const { url, db, server } = await setUp();
    const first = await worker(url);
    const { body: run } = await server.json('POST', '/pipelines', {
      dot_source: timedGate('2s'),
      dry_run: true,
    });
    await untilStatus(server, run.id, 'waiting');
    const [question] = (await server.json('GET', `/pipelines/${run.id}/questions`)).body;
    await server.manager.persisted();
    const asked = await askedAt(db, run.id);
    // The only worker goes away; the deadline passes with nobody to run the timeout job.
    workers.splice(workers.indexOf(first), 1);
    await first.drain(1_000);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, asked + 2_500 - Date.now())));
    // Past its deadline the question is closed, as in one process: the default is on its way.
    const late = await server.json('POST', `/pipelines/${run.id}/questions/${question.id}/answer`, {
      answer: 'R',
    });
    expect(late.status).toBe(409);
    expect(late.body.error.message).toContain('timed out');
    // Another machine's worker (another data folder: no run directory, no answer channel of the run).
    await worker(url);
    const done = await untilStatus(server, run.id, 'completed');
    expect(done.current_node).toBe('exit');
    await server.manager.persisted();
    const events = await storedEvents(db, run.id);
    // Its gate asked again and timed out at once: not released a second time to wait 2 s more.
    expect(events.filter((e) => e.kind === 'pipeline.cancelled')).toHaveLength(1);
    expect(events.filter((e) => e.kind === 'interview.timeout')).toHaveLength(1);
    expect(events.some((e) => e.kind === 'node.start' && e.node_id === 'ship')).toBe(true);
  }, 60_000);
});
