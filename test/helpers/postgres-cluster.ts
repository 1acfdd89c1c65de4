import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import {
  type PostgresCluster,
  postgresBin,
  startPostgresCluster as startOwnCluster,
} from '../../bench/lib/postgres-cluster.mjs';

// The cluster itself is started by the benchmarks' helper, so tests and benchmarks share one harness.
export type { PostgresCluster } from '../../bench/lib/postgres-cluster.mjs';

// CI installs Debian's postgresql and sets ATTRACTOR_PG_TESTS=required, so there a test needing it fails
// instead of being left out; a developer machine without PostgreSQL runs the rest of the suite.
export const PG_REQUIRED = process.env['ATTRACTOR_PG_TESTS'] === 'required';
export const PG_AVAILABLE = postgresBin() !== undefined;

/**
 * The test run's PostgreSQL cluster, as this test file sees it: `createDatabase(name)` makes a fresh,
 * empty database (its name is `name` plus a random suffix, since test files run side by side), and
 * `stop()` leaves the cluster to the end of the run (test/setup/postgres-broker.ts stops and deletes
 * it). Outside a vitest run configured with that globalSetup, it starts a throwaway cluster of its own.
 */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const broker = inject('postgresBroker');
  if (!broker) return startOwnCluster();
  const response = await fetch(broker);
  if (!response.ok) throw new Error(`the test run's PostgreSQL did not start: ${await response.text()}`);
  const shared = (await response.json()) as Pick<PostgresCluster, 'url' | 'port' | 'socketDir'>;
  const urlFor = (db: string) =>
    `postgres://postgres@localhost:${shared.port}/${db}?host=${encodeURIComponent(shared.socketDir)}`;
  return {
    ...shared,
    async createDatabase(name) {
      const db = `${name.replace(/"/g, '')}_${randomBytes(4).toString('hex')}`;
      const client = new pg.Client({ connectionString: shared.url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${db}"`);
      } finally {
        await client.end();
      }
      return urlFor(db);
    },
    async stop() {},
  };
}

/**
 * The test file's PostgreSQL, started before its tests (call it at the top of the file, or in the
 * `describe.runIf(PG_AVAILABLE || PG_REQUIRED)` that holds them). Without PostgreSQL it starts nothing,
 * unless the run requires it (CI), where it fails the file saying so. `createDatabase` before the file's
 * tests began is a mistake of the test's.
 */
export function postgresClusterForFile(timeoutMs = 90_000): Pick<PostgresCluster, 'createDatabase'> {
  let cluster: PostgresCluster | undefined;
  beforeAll(async () => {
    if (!PG_AVAILABLE && !PG_REQUIRED) return;
    expect(PG_AVAILABLE, 'PostgreSQL is not installed (ATTRACTOR_PG_TESTS=required)').toBe(true);
    cluster = await startPostgresCluster();
  }, timeoutMs);
  afterAll(async () => {
    await cluster?.stop();
  });
  return {
    createDatabase(name) {
      if (!cluster) throw new Error('PostgreSQL is not started yet: create databases inside tests');
      return cluster.createDatabase(name);
    },
  };
}
