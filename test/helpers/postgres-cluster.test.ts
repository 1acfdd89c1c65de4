import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/server/postgres/postgres-schema.js';
import { PG_AVAILABLE, PG_REQUIRED, startPostgresCluster } from './postgres-cluster.js';

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

const schemas = (url: string) =>
  query<{ name: string }>(
    url,
    "select nspname as name from pg_namespace where nspname in ('attractor', 'graphile_worker') order by 1",
  );

describe.runIf(PG_AVAILABLE || PG_REQUIRED)("the test run's PostgreSQL cluster", () => {
  it('serves each request a fresh database of its own, named after the request', async () => {
    expect(PG_AVAILABLE, 'PostgreSQL is not installed').toBe(true);
    const cluster = await startPostgresCluster();
    const again = await startPostgresCluster();
    const first = await cluster.createDatabase('harness');
    const second = await again.createDatabase('harness');
    expect(second).not.toBe(first);
    await query(first, 'create table marker (id int)');
    const [one] = await query<{ db: string }>(first, 'select current_database() as db');
    const [two] = await query<{ db: string }>(second, 'select current_database() as db');
    expect(one?.db).toMatch(/^harness_[0-9a-f]{8}$/);
    expect(two?.db).toMatch(/^harness_[0-9a-f]{8}$/);
    expect(one?.db).not.toBe(two?.db);
    // The marker table lives only in the first database.
    const tables = await query<{ n: string }>(
      second,
      "select count(*) as n from information_schema.tables where table_name = 'marker'",
    );
    expect(tables[0]?.n).toBe('0');
    await cluster.stop();
    await again.stop();
  }, 60_000);

  it("a database comes ready, as a first server and worker leave it; an empty one has neither's tables", async () => {
    const cluster = await startPostgresCluster();
    const ready = await cluster.createDatabase('harness_ready');
    const empty = await cluster.createDatabase('harness_empty', { empty: true });
    expect(await schemas(ready)).toEqual([{ name: 'attractor' }, { name: 'graphile_worker' }]);
    const versions = await query<{ version: number }>(
      ready,
      'select max(version) as version from attractor.schema_version',
    );
    expect(versions[0]?.version).toBe(SCHEMA_VERSION);
    expect(await schemas(empty)).toEqual([]);
    await cluster.stop();
  }, 60_000);
});
