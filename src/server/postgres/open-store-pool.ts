import pg from 'pg';
import { AttractorError } from '../../shared/errors.js';
import { migrate } from './postgres-schema.js';

/**
 * A small pool on the server's database with the schema brought to this build's version, for a store
 * that keeps one table (tokens, role grants, the audit trail). A database that cannot be reached or
 * migrated is `STORE_UNAVAILABLE`, and the pool is closed again.
 */
export async function openStorePool(
  url: string,
  onError: (error: Error) => void = () => {},
): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', onError);
  try {
    await migrate(pool);
  } catch (error) {
    await pool.end().catch(() => {});
    throw new AttractorError(
      'STORE_UNAVAILABLE',
      `cannot open the PostgreSQL store: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  return pool;
}
