import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PostgresRunStore } from '../../../src/server/postgres/postgres-run-store.js';
import { parseEventsPayload } from '../../../src/server/postgres/write-run-records.js';
import type { RunRecord } from '../../../src/server/run-record.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { tempDir } from '../../helpers/temp-dir.js';

const record = (id: string): RunRecord => ({
  id,
  name: 'p',
  goal: '',
  status: 'running',
  created_at: '2026-01-01T00:00:01.000Z',
  updated_at: '2026-01-01T00:00:01.000Z',
  source_file: '<inline>',
  options: { dry_run: true, auto_approve: false },
});

describe('an events announcement', () => {
  it.each([
    ['r1 7', { runId: 'r1', last: 7 }],
    ['r1 7 6', { runId: 'r1', last: 7 }],
    ['r1 7 6 [{"a": 1}, {"b": "x y"}]', { runId: 'r1', last: 7, first: 6, events: [{ a: 1 }, { b: 'x y' }] }],
    // Not exactly first…last: the server reads the table instead.
    ['r1 7 5 [{"a": 1}]', { runId: 'r1', last: 7 }],
    ['r1 7 6 [{"a"', { runId: 'r1', last: 7 }],
    ['r1', undefined],
    ['', undefined],
  ])('%j reads as %j', (payload, expected) => {
    expect(parseEventsPayload(payload)).toEqual(expected);
  });
});

describe.runIf(PG_AVAILABLE || PG_REQUIRED)("a commit's run records", () => {
  const cluster = postgresClusterForFile();
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('are written in one statement for all its runs, each run numbered on from its own events', async () => {
    const url = await cluster.createDatabase('records');
    const store = await PostgresRunStore.open(url, tempDir());
    try {
      const ids = ['a', 'b', 'c'];
      for (const id of ids) store.create(record(id), 'digraph r {}');
      await store.flush();
      const sinks = ids.map((id) => store.recordSink(id));
      sinks[0]?.event({ kind: 'k', data: { i: 0 }, timestamp: 't' } as never);
      await store.flush();
      const statements: string[] = [];
      const original = pg.Client.prototype.query;
      vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
        this: pg.Client,
        ...args: unknown[]
      ) {
        if (typeof args[0] === 'string') statements.push(args[0]);
        return (original as (...a: unknown[]) => unknown).apply(this, args);
      } as never);
      // One turn: three runs' events, stage records and checkpoints.
      sinks.forEach((sink, n) => {
        for (let i = 1; i <= 3; i++) sink.event({ kind: 'k', data: { i }, timestamp: 't' } as never);
        sink.stage('s', { outcome: 'success', n });
        sink.checkpoint(JSON.stringify({ n }));
      });
      await store.flush();
      expect(statements.filter((s) => s.includes('INSERT INTO attractor.events'))).toHaveLength(1);
      expect(statements).toHaveLength(3); // BEGIN, the records, COMMIT
      vi.restoreAllMocks();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query<{ run_id: string; seq: string; i: number }>(
          "SELECT run_id, seq, (event->'data'->>'i')::int AS i FROM attractor.events ORDER BY run_id, seq",
        );
        expect(rows.map((r) => `${r.run_id}${r.seq}:${r.i}`)).toEqual([
          'a1:0',
          'a2:1',
          'a3:2',
          'a4:3',
          'b1:1',
          'b2:2',
          'b3:3',
          'c1:1',
          'c2:2',
          'c3:3',
        ]);
        const { rows: checkpoints } = await client.query(
          'SELECT run_id, checkpoint FROM attractor.checkpoints ORDER BY run_id',
        );
        expect(checkpoints).toEqual(ids.map((run_id, n) => ({ run_id, checkpoint: { n } })));
        const { rows: stages } = await client.query(
          'SELECT run_id, status FROM attractor.stages ORDER BY run_id',
        );
        expect(stages).toEqual(ids.map((run_id, n) => ({ run_id, status: { outcome: 'success', n } })));
      } finally {
        await client.end();
      }
    } finally {
      await store.close();
    }
  });
});
