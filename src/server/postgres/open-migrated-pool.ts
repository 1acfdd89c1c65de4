import pg from 'pg';
import { AttractorError } from '../../shared/errors.js';
import { migrate } from './postgres-schema.js';

/**
 * A small pool on the store's database, its schema brought to this build's version first (as the run
 * store does): what each of the server's PostgreSQL stores (tokens, roles, sessions) opens.
 */
export async function openMigratedPool(url: string, onError: (error: Error) => void): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', onError);
  try {
    await migrate(pool);
  } catch (error) {
    await pool.end().catch(() => {});
    throw new AttractorError(
      'STORE_UNAVAILABLE',
      `cannot open the PostgreSQL store: ${(error as Error).message}`,
      { cause: error },
    );
  }
  return pool;
}
