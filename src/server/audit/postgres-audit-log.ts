import type pg from 'pg';
import { openStorePool } from '../postgres/open-store-pool.js';
import { canonicalLine, chainEntry, EMPTY_HEAD } from './audit-chain.js';
import type { AuditEvent } from './audit-entry.js';
import type { AuditLog } from './audit-log.js';

/**
 * The trail in `attractor.audit_log`, shared by every server on the database. Each append takes the
 * table's EXCLUSIVE lock (readers go on) for its transaction, reads the head and adds the next row, so
 * the chain stays one line however many servers write. The canonical line is kept as text: the bytes
 * that were hashed, not a jsonb that reorders them.
 */
export class PostgresAuditLog implements AuditLog {
  readonly where = 'PostgreSQL table attractor.audit_log';
  readonly #pool: pg.Pool;

  private constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  /** Connects and brings the schema to this build's version (as the run store does). */
  static async open(url: string, onError: (error: Error) => void = () => {}): Promise<PostgresAuditLog> {
    return new PostgresAuditLog(await openStorePool(url, onError));
  }

  async append(event: AuditEvent): Promise<void> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('LOCK TABLE attractor.audit_log IN EXCLUSIVE MODE');
      const { rows } = await client.query<{ seq: string; hash: string }>(
        'SELECT seq, hash FROM attractor.audit_log ORDER BY seq DESC LIMIT 1',
      );
      const last = rows[0];
      const head = last ? { seq: Number(last.seq), hash: last.hash } : EMPTY_HEAD;
      const entry = chainEntry(event, head, new Date());
      await client.query('INSERT INTO attractor.audit_log (seq, hash, line) VALUES ($1, $2, $3)', [
        entry.seq,
        entry.hash,
        canonicalLine(entry),
      ]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async lines(): Promise<string[]> {
    const { rows } = await this.#pool.query<{ line: string }>(
      'SELECT line FROM attractor.audit_log ORDER BY seq',
    );
    return rows.map((r) => r.line);
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}
