import pg from 'pg';
import { AttractorError } from '../../shared/errors.js';
import { migrate } from '../postgres/postgres-schema.js';
import { type StoredToken, StoredTokenSchema } from './api-token.js';
import type { TokenStore } from './token-store.js';
import { tokenExists, tokenNotFound } from './token-store-errors.js';

interface TokenRow {
  name: string;
  role: string;
  hash: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

const COLUMNS = 'name, role, hash, created_at, expires_at, revoked_at';

/** Tokens in `attractor.api_tokens`, shared by every server on the database. */
export class PostgresTokenStore implements TokenStore {
  readonly #pool: pg.Pool;
  // Tokens are never deleted, so once one exists the answer stays true: no query per request after.
  #configured = false;

  private constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  /** Connects and brings the schema to this build's version (as the run store does). */
  static async open(url: string, onError: (error: Error) => void = () => {}): Promise<PostgresTokenStore> {
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
    return new PostgresTokenStore(pool);
  }

  async create(token: StoredToken): Promise<void> {
    try {
      await this.#pool.query(
        `INSERT INTO attractor.api_tokens (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)`,
        [
          token.name,
          token.role,
          token.hash,
          token.created_at,
          token.expires_at ?? null,
          token.revoked_at ?? null,
        ],
      );
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw tokenExists(token.name);
      throw error;
    }
  }

  async list(): Promise<StoredToken[]> {
    const { rows } = await this.#pool.query<TokenRow>(
      `SELECT ${COLUMNS} FROM attractor.api_tokens ORDER BY created_at, name`,
    );
    return rows.map(fromRow);
  }

  async byHash(hash: string): Promise<StoredToken | undefined> {
    const { rows } = await this.#pool.query<TokenRow>(
      `SELECT ${COLUMNS} FROM attractor.api_tokens WHERE hash = $1`,
      [hash],
    );
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  async revoke(name: string, at: Date): Promise<StoredToken> {
    const { rows } = await this.#pool.query<TokenRow>(
      `UPDATE attractor.api_tokens SET revoked_at = $2 WHERE name = $1 AND revoked_at IS NULL RETURNING ${COLUMNS}`,
      [name, at.toISOString()],
    );
    if (!rows[0]) throw tokenNotFound(name);
    return fromRow(rows[0]);
  }

  async configured(): Promise<boolean> {
    if (this.#configured) return true;
    const { rows } = await this.#pool.query<{ any: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM attractor.api_tokens) AS any',
    );
    this.#configured = rows[0]?.any === true;
    return this.#configured;
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}

function fromRow(row: TokenRow): StoredToken {
  return StoredTokenSchema.parse({
    name: row.name,
    role: row.role,
    hash: row.hash,
    created_at: row.created_at,
    ...(row.expires_at !== null ? { expires_at: row.expires_at } : {}),
    ...(row.revoked_at !== null ? { revoked_at: row.revoked_at } : {}),
  });
}
