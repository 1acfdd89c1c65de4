import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PostgresRunStore } from '../../../src/server/postgres/postgres-run-store.js';
import { SCHEMA_VERSION } from '../../../src/server/postgres/postgres-schema.js';
import type { RunRecord, StoredQuestion } from '../../../src/server/run-record.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { waitFor } from '../server-fixtures.js';

const cluster = postgresClusterForFile();
let databases = 0;
const freshDatabase = async (): Promise<string> => {
  return cluster.createDatabase(`store_${++databases}`);
};

const record = (id: string, created_at: string, status: RunRecord['status'] = 'queued'): RunRecord => ({
  id,
  name: 'p',
  goal: '',
  status,
  created_at,
  updated_at: created_at,
  source_file: '<inline>',
  options: { dry_run: true, auto_approve: false },
});

const question: StoredQuestion = {
  id: 'q1',
  stage: 'review',
  text: 'Ship it?',
  type: 'multiple_choice',
  options: [{ key: 'S', label: 'Ship' }],
  asked_at: '2026-01-01T00:00:00.000Z',
  status: 'pending',
};

describe.runIf(PG_AVAILABLE || PG_REQUIRED)('the PostgreSQL run store', () => {
  it('migrates a new database to its schema version once, and refuses a newer one', async () => {
    const url = await cluster.createDatabase('store_new', { empty: true });
    const first = await PostgresRunStore.open(url, tempDir());
    const second = await PostgresRunStore.open(url, tempDir());
    await first.close();
    await second.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ version: number }>(
        'SELECT version FROM attractor.schema_version',
      );
      expect(rows.map((r) => r.version)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
      await client.query('INSERT INTO attractor.schema_version (version) VALUES ($1)', [SCHEMA_VERSION + 1]);
    } finally {
      await client.end();
    }
    await expect(PostgresRunStore.open(url, tempDir())).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
      message: expect.stringContaining(`newer than this attractor's ${SCHEMA_VERSION}`),
    });
  });

  it('keeps records, sources and questions in the database: a new store on it reads them back', async () => {
    const url = await freshDatabase();
    const store = await PostgresRunStore.open(url, tempDir());
    store.create(record('r1', '2026-01-01T00:00:01.000Z'), 'digraph a {}');
    store.create(record('r2', '2026-01-01T00:00:02.000Z'), 'digraph b {}');
    store.update('r1', { status: 'completed', quality: 'clean' });
    store.saveQuestions('r2', [question]);
    expect(() => store.create(record('r1', '2026-01-01T00:00:03.000Z'), '')).toThrow(/already exists/);
    await store.flush();
    await store.close();

    const again = await PostgresRunStore.open(url, tempDir());
    try {
      expect(again.get('r1')).toMatchObject({ status: 'completed', quality: 'clean' });
      expect(again.source('r2')).toBe('digraph b {}');
      expect(again.questions('r2')).toEqual([question]);
      expect(again.list().runs.map((r) => r.id)).toEqual(['r2', 'r1']);
      expect(again.list({ status: 'completed' }).runs.map((r) => r.id)).toEqual(['r1']);
      const page = again.list({ limit: 1 });
      expect(page.runs.map((r) => r.id)).toEqual(['r2']);
      expect(again.list({ limit: 1, cursor: page.next_cursor as string }).runs.map((r) => r.id)).toEqual([
        'r1',
      ]);
    } finally {
      await again.close();
    }
  });

  it("hears another store's changes on the same database (LISTEN/NOTIFY)", async () => {
    const url = await freshDatabase();
    const a = await PostgresRunStore.open(url, tempDir());
    const b = await PostgresRunStore.open(url, tempDir());
    try {
      a.create(record('shared', '2026-01-01T00:00:01.000Z'), 'digraph s {}');
      await waitFor(() => b.get('shared'), 'the run on the other store');
      a.update('shared', { status: 'running' });
      await waitFor(() => (b.get('shared')?.status === 'running' ? true : undefined), 'its new status');
      b.saveQuestions('shared', [question]);
      await waitFor(() => (a.questions('shared').length === 1 ? true : undefined), 'the question');
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("keeps a run's events in order, its newest checkpoint and its stage records", async () => {
    const url = await freshDatabase();
    const store = await PostgresRunStore.open(url, tempDir());
    try {
      store.create(record('r', '2026-01-01T00:00:01.000Z'), 'digraph r {}');
      const sink = store.recordSink('r');
      for (let i = 1; i <= 5; i++) sink.event({ kind: 'k', data: { i }, timestamp: i } as never);
      sink.checkpoint('{"status":"running","n":1}');
      sink.checkpoint('{"status":"running","n":2}');
      sink.stage('a', { outcome: 'success' });
      await sink.settled();
      // A second burst appends after the first (a resumed run continues the numbering).
      sink.event({ kind: 'k', data: { i: 6 }, timestamp: 6 } as never);
      await sink.settled();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const { rows: events } = await client.query<{ seq: string; event: { data: { i: number } } }>(
        "SELECT seq, event FROM attractor.events WHERE run_id = 'r' ORDER BY seq",
      );
      const { rows: checkpoints } = await client.query('SELECT checkpoint FROM attractor.checkpoints');
      const { rows: stages } = await client.query('SELECT stage, status FROM attractor.stages');
      await client.end();
      expect(events.map((e) => [Number(e.seq), e.event.data.i])).toEqual([
        [1, 1],
        [2, 2],
        [3, 3],
        [4, 4],
        [5, 5],
        [6, 6],
      ]);
      expect(checkpoints).toEqual([{ checkpoint: { status: 'running', n: 2 } }]);
      expect(stages).toEqual([{ stage: 'a', status: { outcome: 'success' } }]);
    } finally {
      await store.close();
    }
  });

  it("keeps a fan-out's finished branches until its visit completes, and writes them into a run directory", async () => {
    const url = await freshDatabase();
    const store = await PostgresRunStore.open(url, tempDir());
    try {
      store.create(record('r', '2026-01-01T00:00:01.000Z'), 'digraph r {}');
      const sink = store.recordSink('r');
      const branch = (id: string) => ({
        record: { branch_id: id, status: 'success' },
        result: { branchId: id },
      });
      sink.checkpoint('{"current_node":"split"}');
      sink.branch('loop', 'x', branch('x'));
      sink.branchesCleared('loop');
      sink.branch('split', 'a', branch('a'));
      sink.branch('split/branches/a/inner', 'b', branch('b'));
      await sink.settled();
      // This machine ran the run before: a file of a visit since completed elsewhere is not the record.
      const runDir = path.join(tempDir(), 'run');
      mkdirSync(path.join(runDir, 'old'), { recursive: true });
      writeFileSync(path.join(runDir, 'old', 'branch-results.jsonl'), `${JSON.stringify(branch('z'))}\n`);
      expect(await store.materialize('r', runDir)).toBe(true);
      const lines = (stage: string) =>
        readFileSync(path.join(runDir, stage, 'branch-results.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line));
      expect(lines('split')).toEqual([branch('a')]);
      expect(lines('split/branches/a/inner')).toEqual([branch('b')]);
      expect(existsSync(path.join(runDir, 'loop', 'branch-results.jsonl'))).toBe(false);
      expect(existsSync(path.join(runDir, 'old', 'branch-results.jsonl'))).toBe(false);
      // The parallel node completed: a later visit restores nothing.
      sink.branchesCleared('split');
      sink.branchesCleared('split/branches/a/inner');
      await sink.settled();
      await store.materialize('r', runDir);
      expect(existsSync(path.join(runDir, 'split', 'branch-results.jsonl'))).toBe(false);
    } finally {
      await store.close();
    }
  });

  it("keeps a run's snapshot bundles in order and its stage files, and puts the bundles in a run directory that lacks the checkpoint's tree", async () => {
    const url = await freshDatabase();
    const store = await PostgresRunStore.open(url, tempDir());
    try {
      store.create(record('r', '2026-01-01T00:00:01.000Z'), 'digraph r {}');
      const sink = store.recordSink('r');
      const head = 'b'.repeat(40);
      sink.treeBundle?.('a'.repeat(40), Buffer.from('first bundle'));
      sink.stageFiles?.('write', { 'prompt.md': 'Create hello.txt', 'stdout.log': 'old' });
      sink.treeBundle?.(head, Buffer.from([0, 1, 2, 255]));
      // A later hand-over of the same stage: its names replace those kept, the others stay.
      sink.stageFiles?.('write', { 'stdout.log': 'new', 'diff.patch': '+hi' });
      sink.checkpoint(JSON.stringify({ current_node: 'write', tree_head: head }));
      await sink.settled();
      expect(await store.storedStageFiles('r', 'write')).toEqual({
        'prompt.md': 'Create hello.txt',
        'stdout.log': 'new',
        'diff.patch': '+hi',
      });
      expect(await store.storedStageFiles('r', 'other')).toEqual({});
      const runDir = path.join(tempDir(), 'run');
      expect(await store.materialize('r', runDir)).toBe(true);
      const bundles = path.join(runDir, 'tree-bundles');
      expect(readFileSync(path.join(bundles, '000001.bundle'), 'utf8')).toBe('first bundle');
      expect([...readFileSync(path.join(bundles, '000002.bundle'))]).toEqual([0, 1, 2, 255]);
      // This machine's git directory of the run stands at the checkpoint's snapshot: nothing to bring.
      mkdirSync(path.join(runDir, 'tree.git', 'refs', 'attractor', 'runs'), { recursive: true });
      writeFileSync(path.join(runDir, 'tree.git', 'refs', 'attractor', 'runs', 'r'), `${head}\n`);
      await store.materialize('r', runDir);
      expect(existsSync(bundles)).toBe(false);
    } finally {
      await store.close();
    }
  });

  it('says which database it could not open', async () => {
    const url = `${(await freshDatabase()).replace(/\/store_\d+/, '/no_such_db')}`;
    await expect(PostgresRunStore.open(url, tempDir())).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
      message: expect.stringContaining('no_such_db'),
    });
  });
});
