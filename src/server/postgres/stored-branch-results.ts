import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { writeFileAtomic } from '../../shared/atomic-write.js';
import { removePresentFile } from '../../shared/remove-file.js';

/** What a fan-out did to its finished branches, in the order it did it. */
export type BranchWrite =
  | { stage: string; branch: string; checkpoint: unknown }
  | { stage: string; cleared: true };

const FILE = 'branch-results.jsonl';

/**
 * Keep run `id`'s fan-outs' finished branches in `attractor.branch_results` (one row per branch of a
 * parallel node's visit in progress), inside the group commit that holds the run's other records.
 */
export async function writeBranchResults(
  client: pg.PoolClient,
  id: string,
  writes: readonly BranchWrite[],
): Promise<void> {
  for (const write of writes) {
    if ('cleared' in write) {
      await client.query('DELETE FROM attractor.branch_results WHERE run_id = $1 AND stage = $2', [
        id,
        write.stage,
      ]);
    } else {
      await client.query(
        `INSERT INTO attractor.branch_results (run_id, stage, branch, result) VALUES ($1, $2, $3, $4)
         ON CONFLICT (run_id, stage, branch) DO UPDATE SET result = EXCLUDED.result`,
        [id, write.stage, write.branch, JSON.stringify(write.checkpoint)],
      );
    }
  }
}

/**
 * Make `runDir`'s `branch-results.jsonl` files say what the database says: a fan-out continued here
 * restores exactly the branches the run's record holds, whichever machine ran them. A file an earlier
 * attempt left on this machine is the database's or older (a visit since completed elsewhere): it goes.
 */
export async function materializeBranchResults(pool: pg.Pool, id: string, runDir: string): Promise<void> {
  const { rows } = await pool.query<{ stage: string; result: unknown }>(
    'SELECT stage, result FROM attractor.branch_results WHERE run_id = $1 ORDER BY stage, branch',
    [id],
  );
  for (const file of leftFiles(runDir)) removePresentFile(file);
  const byStage = new Map<string, string[]>();
  for (const row of rows) {
    const lines = byStage.get(row.stage) ?? [];
    lines.push(JSON.stringify(row.result));
    byStage.set(row.stage, lines);
  }
  const root = path.resolve(runDir);
  for (const [stage, lines] of byStage) {
    const dir = path.resolve(root, stage);
    // Written by this program as a path relative to the run directory; anything else is not ours.
    if (!dir.startsWith(`${root}${path.sep}`)) continue;
    mkdirSync(dir, { recursive: true });
    writeFileAtomic(path.join(dir, FILE), `${lines.join('\n')}\n`);
  }
}

function leftFiles(runDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(runDir, { recursive: true, encoding: 'utf8' });
  } catch {
    return [];
  }
  return names.filter((name) => path.basename(name) === FILE).map((name) => path.join(runDir, name));
}
