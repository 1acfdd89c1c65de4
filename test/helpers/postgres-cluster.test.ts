import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PG_AVAILABLE, PG_REQUIRED, startPostgresCluster } from './postgres-cluster.js';

describe.runIf(PG_AVAILABLE || PG_REQUIRED)('a throwaway PostgreSQL cluster', () => {
  it('starts on a free port, serves a fresh database and is gone after stop', async () => {
    expect(PG_AVAILABLE, 'PostgreSQL is not installed').toBe(true);
    const cluster = await startPostgresCluster();
    try {
      const url = await cluster.createDatabase('harness');
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const { rows } = await client.query<{ db: string }>('select current_database() as db');
      await client.end();
      expect(rows[0]?.db).toBe('harness');
    } finally {
      await cluster.stop();
    }
    const { existsSync } = await import('node:fs');
    expect(existsSync(cluster.socketDir)).toBe(false);
  }, 60_000);
});
