import type pg from 'pg';
import { AttractorError } from '../../shared/errors.js';

/**
 * The store's schema, one entry per version, applied in order and never edited once released: a
 * database at version N gets entries N+1… at the next start. Everything lives in the `attractor`
 * schema; the job queue keeps its own (`graphile_worker`).
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE attractor.runs (
    id text PRIMARY KEY,
    record jsonb NOT NULL,
    status text NOT NULL,
    created_at text NOT NULL,
    source text NOT NULL
  );
  CREATE INDEX runs_listing ON attractor.runs (created_at DESC, id DESC);
  CREATE INDEX runs_by_status ON attractor.runs (status, created_at DESC, id DESC);
  CREATE TABLE attractor.events (
    run_id text NOT NULL REFERENCES attractor.runs (id) ON DELETE CASCADE,
    seq bigint NOT NULL,
    event jsonb NOT NULL,
    PRIMARY KEY (run_id, seq)
  );
  CREATE TABLE attractor.checkpoints (
    run_id text PRIMARY KEY REFERENCES attractor.runs (id) ON DELETE CASCADE,
    checkpoint jsonb NOT NULL,
    written_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE TABLE attractor.stages (
    run_id text NOT NULL REFERENCES attractor.runs (id) ON DELETE CASCADE,
    stage text NOT NULL,
    status jsonb NOT NULL,
    PRIMARY KEY (run_id, stage)
  );
  CREATE TABLE attractor.questions (
    run_id text PRIMARY KEY REFERENCES attractor.runs (id) ON DELETE CASCADE,
    questions jsonb NOT NULL
  );
  `,
  // The run's owner: raised by each worker that starts or takes over the run; an owner's writes are
  // kept only while it is still theirs (docs/decisions/0221-graphile-worker-schedules-runs.md).
  `
  ALTER TABLE attractor.runs ADD COLUMN attempt integer NOT NULL DEFAULT 0;
  `,
  // A fan-out's finished branches, while its parallel node's visit is in progress: a run continued on
  // another machine does not run them again.
  `
  CREATE TABLE attractor.branch_results (
    run_id text NOT NULL REFERENCES attractor.runs (id) ON DELETE CASCADE,
    stage text NOT NULL,
    branch text NOT NULL,
    result jsonb NOT NULL,
    PRIMARY KEY (run_id, stage, branch)
  );
  `,
  // A cancel asked for while the run's worker may be dead: the next worker to take the run ends it
  // cancelled instead of running it (a NOTIFY reaches only a live one).
  `
  ALTER TABLE attractor.runs ADD COLUMN cancel_requested boolean NOT NULL DEFAULT false;
  `,
  // The run's working tree and its stage files travel with it (docs/decisions/0331-the-run-keeps-its-files-as-git-snapshots.md):
  // a git bundle per snapshot, incremental against the one before, and what a node panel reads.
  `
  CREATE TABLE attractor.tree_bundles (
    run_id text NOT NULL REFERENCES attractor.runs (id) ON DELETE CASCADE,
    seq integer NOT NULL,
    commit text NOT NULL,
    bundle bytea NOT NULL,
    PRIMARY KEY (run_id, seq)
  );
  CREATE TABLE attractor.stage_files (
    run_id text NOT NULL REFERENCES attractor.runs (id) ON DELETE CASCADE,
    stage text NOT NULL,
    name text NOT NULL,
    content text NOT NULL,
    PRIMARY KEY (run_id, stage, name)
  );
  `,
  // The audit trail (docs/decisions/0510-the-audit-trail-is-a-hash-chain.md): each row's canonical line
  // as hashed; rows are never updated or deleted, and appends take the table's lock to stay one chain.
  `
  CREATE TABLE attractor.audit_log (
    seq bigint PRIMARY KEY,
    hash text NOT NULL,
    line text NOT NULL
  );
  `,
  // Who asked for a run's cancel (decision 0410): the worker that hears it, or takes the run next,
  // records them in the run's \`pipeline.cancelled\` event and its record.
  `
  ALTER TABLE attractor.runs ADD COLUMN cancel_requested_by text;
  `,
  // Personal API tokens (docs/decisions/0500-who-may-do-what.md): only their SHA-256; a name is unique
  // among live tokens, so a revoked one's name can be given to its replacement.
  `
  CREATE TABLE attractor.api_tokens (
    hash text PRIMARY KEY,
    name text NOT NULL,
    role text NOT NULL,
    created_at text NOT NULL,
    expires_at text,
    revoked_at text
  );
  CREATE UNIQUE INDEX api_tokens_live_name ON attractor.api_tokens (name) WHERE revoked_at IS NULL;
  `,
  // Roles of signed-in people kept in the store (docs/decisions/0500-who-may-do-what.md): one row per
  // grantee and role, read by (kind, id) on each request of a signed-in person.
  `
  CREATE TABLE attractor.role_grants (
    kind text NOT NULL CHECK (kind IN ('user', 'group')),
    id text NOT NULL,
    role text NOT NULL,
    granted_at text NOT NULL,
    granted_by text NOT NULL,
    PRIMARY KEY (kind, id, role)
  );
  `,
  // Sign-in sessions (docs/decisions/0500-who-may-do-what.md): the SHA-256 of the id the cookie carries,
  // who signed in (roles are resolved per request, not kept), and when it ends; read by hash on each
  // request of a signed-in person, expired rows deleted at each sign-in (the index on expires_at).
  `
  CREATE TABLE attractor.sessions (
    hash text PRIMARY KEY,
    subject text NOT NULL,
    email text,
    groups text[] NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
  );
  CREATE INDEX sessions_expiry ON attractor.sessions (expires_at);
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

// Any constant: servers and workers starting together take turns migrating.
const MIGRATION_LOCK = 0x617474;

/**
 * Bring the database to `SCHEMA_VERSION`, in one transaction per step, under an advisory lock so
 * processes starting at once do not race. A database newer than this build is refused: its tables may
 * mean what this build does not know.
 */
export async function migrate(pool: pg.Pool): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE SCHEMA IF NOT EXISTS attractor');
    await client.query(
      'CREATE TABLE IF NOT EXISTS attractor.schema_version (version integer NOT NULL, migrated_at timestamptz NOT NULL DEFAULT now())',
    );
    const { rows } = await client.query<{ v: number | null }>(
      'SELECT max(version) AS v FROM attractor.schema_version',
    );
    const current = rows[0]?.v ?? 0;
    if (current > SCHEMA_VERSION) {
      throw new AttractorError(
        'STORE_SCHEMA_NEWER',
        `the database's schema is version ${current}, newer than this attractor's ${SCHEMA_VERSION}: upgrade attractor.`,
      );
    }
    for (let version = current + 1; version <= SCHEMA_VERSION; version++) {
      await client.query('BEGIN');
      try {
        await client.query(MIGRATIONS[version - 1] as string);
        await client.query('INSERT INTO attractor.schema_version (version) VALUES ($1)', [version]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    }
    return SCHEMA_VERSION;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    client.release();
  }
}
