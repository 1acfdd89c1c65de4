import pg from 'pg';
import { AttractorError } from '../../shared/errors.js';
import { migrate } from '../postgres/postgres-schema.js';
import type { SignedInPerson } from './access-file.js';
import { type Role, RoleSchema } from './role.js';
import { type Grantee, granteesOf, type RoleGrant, RoleGrantSchema } from './role-grant.js';
import type { RoleStore } from './role-store.js';
import { roleAlreadyGranted, roleNotGranted } from './role-store-errors.js';

interface GrantRow {
  kind: string;
  id: string;
  role: string;
  granted_at: string;
  granted_by: string;
}

const COLUMNS = 'kind, id, role, granted_at, granted_by';

/** Role grants in `attractor.role_grants`, shared by every server on the database. */
export class PostgresRoleStore implements RoleStore {
  readonly #pool: pg.Pool;

  private constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  /** Connects and brings the schema to this build's version (as the run store does). */
  static async open(url: string, onError: (error: Error) => void = () => {}): Promise<PostgresRoleStore> {
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
    return new PostgresRoleStore(pool);
  }

  async grant(grant: RoleGrant): Promise<void> {
    const { grantee, role, granted_at, granted_by } = grant;
    const { rowCount } = await this.#pool.query(
      `INSERT INTO attractor.role_grants (${COLUMNS}) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
      [grantee.kind, grantee.id, role, granted_at, granted_by],
    );
    if (rowCount === 0) throw roleAlreadyGranted(grantee, role);
  }

  async revoke(grantee: Grantee, role: Role): Promise<RoleGrant> {
    const { rows } = await this.#pool.query<GrantRow>(
      `DELETE FROM attractor.role_grants WHERE kind = $1 AND id = $2 AND role = $3 RETURNING ${COLUMNS}`,
      [grantee.kind, grantee.id, role],
    );
    if (!rows[0]) throw roleNotGranted(grantee, role);
    return fromRow(rows[0]);
  }

  async list(): Promise<RoleGrant[]> {
    const { rows } = await this.#pool.query<GrantRow>(
      `SELECT ${COLUMNS} FROM attractor.role_grants ORDER BY granted_at, kind, id, role`,
    );
    return rows.map(fromRow);
  }

  /** One indexed query (the primary key's prefix) per request of a signed-in person. */
  async rolesOf(person: SignedInPerson): Promise<Role[]> {
    const grantees = granteesOf(person);
    const { rows } = await this.#pool.query<{ role: string }>(
      `SELECT DISTINCT role FROM attractor.role_grants
        WHERE (kind, id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
      [grantees.map((g) => g.kind), grantees.map((g) => g.id)],
    );
    return rows.map((row) => RoleSchema.parse(row.role));
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}

function fromRow(row: GrantRow): RoleGrant {
  return RoleGrantSchema.parse({
    grantee: { kind: row.kind, id: row.id },
    role: row.role,
    granted_at: row.granted_at,
    granted_by: row.granted_by,
  });
}
