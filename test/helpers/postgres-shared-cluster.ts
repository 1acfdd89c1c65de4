import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { PostgresCluster } from '../../bench/lib/postgres-cluster.mjs';
import { PostgresRunStore } from '../../src/server/postgres/postgres-run-store.js';
import { RunQueue } from '../../src/server/postgres/run-queue.js';

/** Where a cluster listens: `url` is its `postgres` database's. */
export type ClusterAddress = Pick<PostgresCluster, 'url' | 'port' | 'socketDir'>;

/** The URL of database `db` in `cluster` (over its unix socket). */
export function databaseUrl(cluster: ClusterAddress, db: string): string {
  return `postgres://postgres@localhost:${cluster.port}/${db}?host=${encodeURIComponent(cluster.socketDir)}`;
}

/** The database the test run copies for every test that is not about a first migration. */
export const READY_TEMPLATE = 'attractor_ready';

/**
 * Create `READY_TEMPLATE` in `cluster`: a database as the first server and worker leave it (the store's
 * schema, the queue's tables). Copying it costs a third of what creating an empty database and
 * migrating it does: about 240 ms less of PostgreSQL's CPU for each of the 40-odd databases a run makes.
 * The tests about a first migration still get empty databases (`createDatabase(…, { empty: true })`).
 */
export async function createReadyTemplate(cluster: ClusterAddress): Promise<string> {
  const adminUrl = cluster.url;
  await adminQuery(adminUrl, `CREATE DATABASE "${READY_TEMPLATE}" STRATEGY = FILE_COPY`);
  const url = databaseUrl(cluster, READY_TEMPLATE);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'attractor-ready-'));
  try {
    const store = await PostgresRunStore.open(url, dataDir);
    await store.close();
    const queue = await RunQueue.open(url);
    await queue.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  // Nobody connects to it again: a copy is refused while anyone is connected to its template.
  await adminQuery(adminUrl, `ALTER DATABASE "${READY_TEMPLATE}" WITH ALLOW_CONNECTIONS false`);
  return READY_TEMPLATE;
}

/**
 * Create database `db` as a copy of `template` (`template1`: empty). FILE_COPY copies the files, where
 * the default (WAL_LOG) writes every page of the template through the write-ahead log: three times the
 * CPU for the small databases tests use.
 */
export async function copyDatabase(adminUrl: string, db: string, template: string): Promise<void> {
  await adminQuery(adminUrl, `CREATE DATABASE "${db}" TEMPLATE "${template}" STRATEGY = FILE_COPY`);
}

/** Run `sql` on a connection of its own (CREATE and DROP DATABASE cannot run in a transaction). */
export async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** What the broker answers: the cluster, and the database copied for a ready one. */
export interface SharedCluster {
  url: string;
  port: number;
  socketDir: string;
  template: string;
  stop(): Promise<void>;
}

/** A started cluster with its ready template made: what the broker serves, and `stop` to end it. */
export async function sharedCluster(cluster: PostgresCluster): Promise<SharedCluster> {
  try {
    const template = await createReadyTemplate(cluster);
    return {
      url: cluster.url,
      port: cluster.port,
      socketDir: cluster.socketDir,
      template,
      stop: () => cluster.stop(),
    };
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}
