import { existsSync } from 'node:fs';
import path from 'node:path';
import { readCheckpoint } from '../run/checkpoint.js';
import { AttractorError } from '../shared/errors.js';
import { snapshotDiff } from '../working-tree/snapshot-diff.js';
import type { CliContext } from './cli-context.js';
import type { DiffFlags } from './commands/diff.js';
import { EXIT_OK } from './exit-codes.js';

/** `attractor diff <run-dir> [--node ID] [--stat]`: a run's or a node's changes, from its snapshots. */
export async function runDiff(run: string, flags: DiffFlags, ctx: CliContext): Promise<number> {
  const runDir = path.resolve(ctx.io.cwd, run);
  if (!existsSync(path.join(runDir, 'checkpoint.json')))
    throw new AttractorError('DIFF_NOT_A_RUN', `${run} has no checkpoint.json: is it a run directory?`);
  const checkpoint = readCheckpoint(path.join(runDir, 'checkpoint.json'));
  const commit = flags.node === undefined ? undefined : checkpoint.tree_commits?.[flags.node];
  if (flags.node !== undefined && commit === undefined) {
    const skipped = checkpoint.tree_skipped?.[flags.node];
    throw new AttractorError(
      'DIFF_NO_SNAPSHOT',
      skipped
        ? `node "${flags.node}"'s snapshot was skipped (${skipped}): there is no diff to show.`
        : `run ${checkpoint.run_id} has no snapshot of node "${flags.node}" (it did not run, does no work, or the run kept no snapshots); nodes with one: ${Object.keys(checkpoint.tree_commits ?? {}).join(', ') || 'none'}.`,
    );
  }
  const diff = await snapshotDiff(runDir, {
    ...(commit ? { commit } : {}),
    ...(checkpoint.tree_head ? { head: checkpoint.tree_head } : {}),
    ...(flags.stat ? { stat: true } : {}),
  });
  if (diff === undefined)
    throw new AttractorError(
      'DIFF_NO_SNAPSHOT',
      `run ${checkpoint.run_id} kept no snapshots of its working folder (a dry run, --no-snapshots, or no git).`,
    );
  ctx.io.stdout(diff);
  return EXIT_OK;
}
