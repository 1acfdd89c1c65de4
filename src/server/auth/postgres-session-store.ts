import type pg from 'pg';
import { openStorePool } from '../postgres/open-store-pool.js';
import type { SessionStore } from './session-store.js';
import { type StoredSession, StoredSessionSchema } from './stored-session.js';

interface SessionRow {
  hash: string;
  subject: string;
  email: string | null;
  groups: string[];
  created_at: Date;
  expires_at: Date;
}

const COLUMNS = 'hash, subject, email, groups, created_at, expires_at';

/** Sessions in `attractor.sessions`, shared by every server on the database. */
export class PostgresSessionStore implements SessionStore {
  readonly #pool: pg.Pool;

  private constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  static async open(url: string, onError: (error: Error) => void = () => {}): Promise<PostgresSessionStore> {
    return new PostgresSessionStore(await openStorePool(url, onError));
  }

  async add(session: StoredSession, now: Date): Promise<void> {
    const { hash, person, created_at, expires_at } = session;
    await this.#pool.query('DELETE FROM attractor.sessions WHERE expires_at <= $1', [now]);
    await this.#pool.query(`INSERT INTO attractor.sessions (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)`, [
      hash,
      person.subject,
      person.email ?? null,
      person.groups,
      created_at,
      expires_at,
    ]);
  }

  /** One query by the primary key per request of a signed-in person. */
  async byHash(hash: string): Promise<StoredSession | undefined> {
    const { rows } = await this.#pool.query<SessionRow>(
      `SELECT ${COLUMNS} FROM attractor.sessions WHERE hash = $1`,
      [hash],
    );
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  async remove(hash: string): Promise<void> {
    await this.#pool.query('DELETE FROM attractor.sessions WHERE hash = $1', [hash]);
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}

function fromRow(row: SessionRow): StoredSession {
  return StoredSessionSchema.parse({
    hash: row.hash,
    person: {
      subject: row.subject,
      ...(row.email !== null ? { email: row.email } : {}),
      groups: row.groups,
    },
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
  });
}
