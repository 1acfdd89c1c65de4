import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { TREE_BUNDLES_DIR } from '../../run/carried-tree.js';
import { writeFileAtomic } from '../../shared/atomic-write.js';
import { readRefFile, runRef, TREE_GIT_DIR } from '../../working-tree/tree-git-dir.js';

/** A snapshot's new objects, as the run's executor handed them over. */
export interface TreeBundleWrite {
  commit: string;
  bundle: Buffer;
}

/**
 * Keep run `id`'s snapshot bundles in `attractor.tree_bundles`, numbered after the ones before, inside
 * the group commit that holds the checkpoint naming them (the bundle is handed over first): a worker
 * taking the run over never finds a checkpoint whose tree is not there.
 */
export async function writeTreeBundles(
  client: pg.PoolClient,
  id: string,
  bundles: readonly TreeBundleWrite[],
): Promise<void> {
  for (const { commit, bundle } of bundles) {
    await client.query(
      `INSERT INTO attractor.tree_bundles (run_id, seq, commit, bundle)
       SELECT $1, coalesce(max(seq), 0) + 1, $2, $3 FROM attractor.tree_bundles WHERE run_id = $1`,
      [id, commit, bundle],
    );
  }
}

/** Keep the files a node panel shows of run `id`'s stages (`stage` → name → text). */
export async function writeStageFiles(
  client: pg.PoolClient,
  id: string,
  files: ReadonlyMap<string, Readonly<Record<string, string>>>,
): Promise<void> {
  const rows = [...files].flatMap(([stage, named]) =>
    Object.entries(named).map(([name, content]) => [stage, name, content] as const),
  );
  if (rows.length === 0) return;
  await client.query(
    `INSERT INTO attractor.stage_files (run_id, stage, name, content)
     SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[])
     ON CONFLICT (run_id, stage, name) DO UPDATE SET content = EXCLUDED.content`,
    [id, rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2])],
  );
}

/** The files of run `id`'s stage as its executor committed them (none: an empty record). */
export async function readStageFiles(
  pool: pg.Pool,
  id: string,
  stage: string,
): Promise<Record<string, string>> {
  const { rows } = await pool.query<{ name: string; content: string }>(
    'SELECT name, content FROM attractor.stage_files WHERE run_id = $1 AND stage = $2',
    [id, stage],
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.content]));
}

/**
 * Put run `id`'s snapshot bundles in `runDir/tree-bundles/` (numbered in the order they were made) for
 * the run's tree to take in before its next node, unless this machine's git directory of the run
 * already stands at `head` (a run continuing where it stopped). Bundles an earlier attempt left go.
 */
export async function materializeTreeBundles(
  pool: pg.Pool,
  id: string,
  runDir: string,
  head: string | undefined,
): Promise<void> {
  const folder = path.join(runDir, TREE_BUNDLES_DIR);
  rmSync(folder, { recursive: true, force: true });
  if (!head || readRefFile(path.join(runDir, TREE_GIT_DIR), runRef(id)) === head) return;
  const { rows } = await pool.query<{ seq: number; bundle: Buffer }>(
    'SELECT seq, bundle FROM attractor.tree_bundles WHERE run_id = $1 ORDER BY seq',
    [id],
  );
  if (rows.length === 0) return;
  mkdirSync(folder, { recursive: true });
  for (const row of rows)
    writeFileAtomic(path.join(folder, `${String(row.seq).padStart(6, '0')}.bundle`), row.bundle, {
      durable: false,
    });
}
