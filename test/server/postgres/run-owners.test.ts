import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PostgresRunStore } from '../../../src/server/postgres/postgres-run-store.js';
import type { RunRecord, StoredQuestion } from '../../../src/server/run-record.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { waitFor } from '../server-fixtures.js';

const cluster = postgresClusterForFile();

const record = (id: string): RunRecord => ({
  id,
  name: 'p',
  goal: '',
  status: 'queued',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
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

const event = (i: number) => ({ kind: 'k', data: { i }, timestamp: i }) as never;

describe.runIf(PG_AVAILABLE || PG_REQUIRED)("a run's owner (the attempt on its row)", () => {
  it('a worker whose run was taken over cannot write it: events, checkpoint, stages, status, questions', async () => {
    const url = await cluster.createDatabase('owners');
    const first = await PostgresRunStore.open(url, tempDir());
    const second = await PostgresRunStore.open(url, tempDir());
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      first.create(record('r'), 'digraph r {}');
      await first.flush();
      // A third worker read the run before the first took it: its take loses (compare-and-set).
      const late = await PostgresRunStore.open(url, tempDir());
      const taken = await first.owners.take('r');
      expect(taken).toBeTypeOf('number');
      expect(await late.owners.take('r')).toBeUndefined();
      await late.close();

      const refused: string[] = [];
      first.owners.onRefused('r', taken ?? 0, (id) => refused.push(id));
      const sink = first.recordSink('r');
      sink.event(event(1));
      sink.checkpoint('{"n":1}');
      first.update('r', { status: 'running' });
      await first.flush();
      expect(refused).toEqual([]);

      // The second worker takes the run over (its lease fired).
      await second.refresh('r');
      expect(await second.owners.take('r')).toBeTypeOf('number');
      expect(await first.owners.owns('r')).toBe(false);

      sink.event(event(2));
      sink.checkpoint('{"n":2}');
      sink.stage('a', { outcome: 'success' });
      first.update('r', { status: 'completed' });
      first.saveQuestions('r', [question]);
      // Refused, not failed: the store goes on for the worker's other runs.
      await first.flush();
      expect(refused.length).toBeGreaterThan(0);
      expect(new Set(refused)).toEqual(new Set(['r']));
      first.create(record('other'), 'digraph o {}');
      await first.flush();

      const secondSink = second.recordSink('r');
      secondSink.event(event(3));
      await second.flush();

      const { rows: events } = await client.query<{ event: { data: { i: number } } }>(
        "SELECT event FROM attractor.events WHERE run_id = 'r' ORDER BY seq",
      );
      expect(events.map((e) => e.event.data.i)).toEqual([1, 3]);
      const { rows: checkpoints } = await client.query('SELECT checkpoint FROM attractor.checkpoints');
      expect(checkpoints).toEqual([{ checkpoint: { n: 1 } }]);
      expect((await client.query('SELECT * FROM attractor.stages')).rows).toEqual([]);
      expect((await client.query('SELECT * FROM attractor.questions')).rows).toEqual([]);
      const { rows: runs } = await client.query<{ id: string; status: string; attempt: number }>(
        'SELECT id, status, attempt FROM attractor.runs ORDER BY id',
      );
      expect(runs).toEqual([
        { id: 'other', status: 'queued', attempt: 0 },
        { id: 'r', status: 'running', attempt: 2 },
      ]);
      // What the first told itself did not happen: it reads back what did.
      await waitFor(() => (first.get('r')?.status === 'running' ? true : undefined), 'the record read back');
      expect(first.questions('r')).toEqual([]);
    } finally {
      await client.end();
      await first.close();
      await second.close();
    }
  });

  it('a later attempt this process took is not the earlier attempt’s: owning, letting go and refusals are per attempt', async () => {
    const url = await cluster.createDatabase('owners_attempts');
    const worker = await PostgresRunStore.open(url, tempDir());
    try {
      worker.create(record('r'), 'digraph r {}');
      await worker.flush();
      const earlier = (await worker.owners.take('r')) ?? 0;
      const refused: string[] = [];
      worker.owners.onRefused('r', earlier, () => refused.push('earlier'));
      // A gate's continuation taken here while the earlier attempt still lets go.
      const later = (await worker.owners.take('r')) ?? 0;
      expect(later).toBe(earlier + 1);
      worker.owners.onRefused('r', later, () => refused.push('later'));
      expect(await worker.owners.owns('r', earlier)).toBe(false);
      expect(await worker.owners.owns('r', later)).toBe(true);
      worker.owners.disown('r', earlier);
      expect(await worker.owners.owns('r')).toBe(true);
      // The later attempt's writes are an owner's: kept, nobody refused.
      worker.recordSink('r').event(event(1));
      await worker.flush();
      expect(refused).toEqual([]);
      worker.owners.disown('r', later);
      expect(await worker.owners.owns('r')).toBe(false);
    } finally {
      await worker.close();
    }
  });

  it("a server's writes are not an owner's: they are kept whoever owns the run", async () => {
    const url = await cluster.createDatabase('server_writes');
    const worker = await PostgresRunStore.open(url, tempDir());
    const server = await PostgresRunStore.open(url, tempDir());
    try {
      server.create(record('r'), 'digraph r {}');
      await server.flush();
      await worker.refresh('r');
      expect(await worker.owners.take('r')).toBeTypeOf('number');
      await server.refresh('r');
      server.saveQuestions('r', [{ ...question, status: 'answered', answer: 'S' } as StoredQuestion]);
      await server.flush();
      const reader = await PostgresRunStore.open(url, tempDir());
      expect(reader.questions('r').map((q) => q.status)).toEqual(['answered']);
      await reader.close();
    } finally {
      await worker.close();
      await server.close();
    }
  });
});
