import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PostgresRunStore } from '../../../src/server/postgres/postgres-run-store.js';
import type { RunRecord } from '../../../src/server/run-record.js';
import type { PipelineEvent } from '../../../src/shared/pipeline-event.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { waitFor } from '../server-fixtures.js';

const cluster = postgresClusterForFile();
let databases = 0;

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

const event = (i: number, pad = 0): PipelineEvent =>
  ({ kind: 'k', data: { i, pad: 'x'.repeat(pad) }, timestamp: '2026-01-01T00:00:00.000Z' }) as never;

/** A subscriber that keeps what it was sent. */
function collector() {
  const got: { id: number; event: PipelineEvent }[] = [];
  return {
    got,
    sink: {
      event: (id: number, e: PipelineEvent) => {
        got.push({ id, event: e });
        return true;
      },
      done: () => {},
    },
  };
}

/**
 * Reads of run events through any pool of this process are counted; while `hold` is set, a read's
 * answer (taken at once, so it is as old as the moment it was asked) waits for it before it is returned.
 */
function watchEventReads() {
  const original = pg.Pool.prototype.query;
  const watch = { reads: 0, hold: undefined as Promise<void> | undefined, started: () => {} };
  vi.spyOn(pg.Pool.prototype, 'query').mockImplementation(async function (this: pg.Pool, ...args: unknown[]) {
    const result = await (original as (...a: unknown[]) => Promise<unknown>).apply(this, args);
    if (typeof args[0] === 'string' && args[0].startsWith('SELECT seq, event FROM attractor.events')) {
      watch.reads++;
      const hold = watch.hold;
      if (hold) {
        watch.started();
        await hold;
      }
    }
    return result;
  } as never);
  return watch;
}

/** A worker's store writing run `id`, and a server's store on the same database streaming it. */
async function twoStores(id: string) {
  const url = await cluster.createDatabase(`hub_${++databases}`);
  const worker = await PostgresRunStore.open(url, tempDir());
  const server = await PostgresRunStore.open(url, tempDir());
  worker.create(record(id), 'digraph r {}');
  await worker.flush();
  await waitFor(() => server.get(id), 'the run on the server');
  const sink = worker.recordSink(id);
  let written = 0;
  /** Commit `n` more events (each `pad` characters longer) in one burst. */
  const burst = async (n: number, pad = 0) => {
    for (let k = 0; k < n; k++) sink.event(event(++written, pad));
    await sink.settled();
  };
  const close = async () => {
    await worker.close();
    await server.close();
  };
  return { url, worker, server, burst, close, written: () => written };
}

const allOf = (subscribers: ReturnType<typeof collector>[], n: number) =>
  waitFor(() => (subscribers.every((s) => s.got.length >= n) ? true : undefined), `${n} events each`);

const expectExactlyInOrder = (subscriber: ReturnType<typeof collector>, n: number) => {
  expect(subscriber.got.map((g) => g.id)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
  expect(subscriber.got.map((g) => (g.event.data as { i: number }).i)).toEqual(
    Array.from({ length: n }, (_, i) => i + 1),
  );
};

describe.runIf(PG_AVAILABLE || PG_REQUIRED)("a run's event stream on PostgreSQL", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('many subscribers of a run share its stream: small bursts come in the NOTIFY, a big one is one read for all', async () => {
    const { server, burst, close } = await twoStores('many');
    try {
      await burst(3);
      const subscribers = Array.from({ length: 10 }, () => collector());
      const hub = server.eventHub('many');
      for (const s of subscribers) hub.subscribe(0, s.sink);
      await allOf(subscribers, 3);
      const watch = watchEventReads();
      for (let b = 0; b < 5; b++) await burst(4);
      await allOf(subscribers, 23);
      // Everything those five bursts made came with their notifications: no subscriber read the table.
      expect(watch.reads).toBe(0);
      // A burst too big for a notification: the subscribers that follow the run share one read of it.
      await burst(3, 4_000);
      await allOf(subscribers, 26);
      expect(watch.reads).toBe(1);
      for (const s of subscribers) expectExactlyInOrder(s, 26);
    } finally {
      await close();
    }
  });

  it('streams exactly the stored rows, whether they came in a notification or from the table', async () => {
    const { url, server, burst, close } = await twoStores('same');
    try {
      const live = collector();
      server.eventHub('same').subscribe(0, live.sink);
      await waitFor(() => (server.eventHub('same').subscriberCount === 1 ? true : undefined), 'subscribed');
      await burst(3);
      await burst(2, 4_000);
      await allOf([live], 5);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const { rows } = await client
        .query<{ event: unknown }>("SELECT event FROM attractor.events WHERE run_id = 'same' ORDER BY seq")
        .finally(() => client.end());
      // Same keys in the same order: the SSE text of a live event and of a replayed one are identical.
      expect(live.got.map((g) => JSON.stringify(g.event))).toEqual(rows.map((r) => JSON.stringify(r.event)));
    } finally {
      await close();
    }
  });

  it.each([
    ['others already follow the run', true],
    ['it is the first to follow the run', false],
  ])(
    'events committed while a replay is in flight are neither lost nor sent twice (%s)',
    async (_, others) => {
      const { server, burst, close } = await twoStores('replay');
      try {
        await burst(3);
        const hub = server.eventHub('replay');
        const following = collector();
        if (others) {
          hub.subscribe(0, following.sink);
          await allOf([following], 3);
        }
        const watch = watchEventReads();
        let release = () => {};
        watch.hold = new Promise<void>((resolve) => {
          release = resolve;
        });
        const replayStarted = new Promise<void>((resolve) => {
          watch.started = resolve;
        });
        const late = collector();
        hub.subscribe(0, late.sink);
        // The replay has read events 1-3; 4-9 are committed (and announced) before it hands them over.
        await replayStarted;
        watch.hold = undefined;
        await burst(4);
        await burst(2);
        if (others) await allOf([following], 9);
        release();
        await allOf([late], 9);
        await burst(1);
        await allOf(others ? [late, following] : [late], 10);
        await new Promise((resolve) => setTimeout(resolve, 100));
        expectExactlyInOrder(late, 10);
        if (others) expectExactlyInOrder(following, 10);
      } finally {
        await close();
      }
    },
  );

  it('a replay longer than a page reaches the live stream', async () => {
    const { server, burst, close } = await twoStores('long');
    try {
      await burst(1_200);
      const subscriber = collector();
      server.eventHub('long').subscribe(0, subscriber.sink);
      await allOf([subscriber], 1_200);
      await burst(5);
      await allOf([subscriber], 1_205);
      expectExactlyInOrder(subscriber, 1_205);
    } finally {
      await close();
    }
  });
});
