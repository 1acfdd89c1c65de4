import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { postgresBin, startPostgresCluster as startOwnCluster } from '../../bench/lib/postgres-cluster.mjs';
import {
  adminQuery,
  copyDatabase,
  databaseUrl,
  type SharedCluster,
  sharedCluster,
} from './postgres-shared-cluster.js';

// The cluster itself is started by the benchmarks' helper, so tests and benchmarks share one harness.
// CI installs Debian's postgresql and sets ATTRACTOR_PG_TESTS=required, so there a test needing it fails
// instead of being left out; a developer machine without PostgreSQL runs the rest of the suite.
export const PG_REQUIRED = process.env['ATTRACTOR_PG_TESTS'] === 'required';
export const PG_AVAILABLE = postgresBin() !== undefined;

/** Options of `createDatabase`. */
export interface DatabaseOptions {
  /**
   * An empty database, for a test about what a first server or worker does to one (migrate it). By
   * default a database comes as the first server and worker leave it: the store's schema and the
   * queue's tables in place (test/helpers/postgres-shared-cluster.ts).
   */
  empty?: boolean;
}

/** The test run's PostgreSQL cluster, as a test file sees it. */
export interface TestPostgres {
  url: string;
  port: number;
  socketDir: string;
  /**
   * A fresh database of the caller's own: named `name` plus a random suffix (test files run side by side).
   * Returns its URL.
   */
  createDatabase(name: string, options?: DatabaseOptions): Promise<string>;
  /** Drop the database at `url` (made by `createDatabase`), ending its connections. */
  dropDatabase(url: string): Promise<void>;
  /** Leaves the shared cluster to the end of the run (test/helpers/postgres-broker.ts stops it). */
  stop(): Promise<void>;
}

/**
 * The test run's PostgreSQL cluster. Outside a vitest run configured with the broker's globalSetup, it
 * starts a throwaway cluster of its own.
 */
export async function startPostgresCluster(): Promise<TestPostgres> {
  const broker = inject('postgresBroker');
  const shared: SharedCluster = broker ? await askBroker(broker) : await ownCluster();
  return {
    url: shared.url,
    port: shared.port,
    socketDir: shared.socketDir,
    async createDatabase(name, options = {}) {
      const db = `${name.replace(/"/g, '')}_${randomBytes(4).toString('hex')}`;
      await copyDatabase(shared.url, db, options.empty ? 'template1' : shared.template);
      return databaseUrl(shared, db);
    },
    async dropDatabase(url) {
      const db = decodeURIComponent(new URL(url).pathname.slice(1));
      await adminQuery(shared.url, `DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
    },
    stop: shared.stop,
  };
}

async function askBroker(broker: string): Promise<SharedCluster> {
  const response = await fetch(broker);
  if (!response.ok) throw new Error(`the test run's PostgreSQL did not start: ${await response.text()}`);
  const shared = (await response.json()) as Omit<SharedCluster, 'stop'>;
  return { ...shared, async stop() {} };
}

/** A cluster of this file's own, made as the broker makes the run's. */
async function ownCluster(): Promise<SharedCluster> {
  return sharedCluster(await startOwnCluster());
}

/**
 * The test file's PostgreSQL, started before its tests (call it at the top of the file, or in the
 * `describe.runIf(PG_AVAILABLE || PG_REQUIRED)` that holds them). Without PostgreSQL it starts nothing,
 * unless the run requires it (CI), where it fails the file saying so. `createDatabase` before the file's
 * tests began is a mistake of the test's.
 */
export function postgresClusterForFile(timeoutMs = 90_000): Pick<TestPostgres, 'createDatabase'> {
  let cluster: TestPostgres | undefined;
  beforeAll(async () => {
    if (!PG_AVAILABLE && !PG_REQUIRED) return;
    expect(PG_AVAILABLE, 'PostgreSQL is not installed (ATTRACTOR_PG_TESTS=required)').toBe(true);
    cluster = await startPostgresCluster();
  }, timeoutMs);
  const created: string[] = [];
  afterAll(async () => {
    // Dropped while other files still run: removing some 40 databases' files at the run's end, after
    // the last test, was seconds added to its wall time.
    if (cluster) for (const url of created.splice(0)) await cluster.dropDatabase(url);
    await cluster?.stop();
  });
  return {
    async createDatabase(name, options) {
      if (!cluster) throw new Error('PostgreSQL is not started yet: create databases inside tests');
      const url = await cluster.createDatabase(name, options);
      created.push(url);
      return url;
    },
  };
}
