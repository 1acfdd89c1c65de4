import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseAge, pruneRuns } from '../run/prune-runs.js';
import { AttractorError } from '../shared/errors.js';
import type { CliContext } from './cli-context.js';
import type { RunsFlags } from './commands/runs.js';
import { displayPath } from './display-path.js';
import { EXIT_OK } from './exit-codes.js';

/** `attractor runs --prune [--older-than 30d]`: remove finished runs and their snapshot refs. */
export async function runPrune(root: string, flags: RunsFlags, ctx: CliContext): Promise<number> {
  if (!flags.prune) throw new AttractorError('BAD_FLAG', '--older-than goes with --prune.');
  const olderThanMs = flags.olderThan === undefined ? undefined : parseAge(flags.olderThan);
  if (flags.olderThan !== undefined && olderThanMs === undefined)
    throw new AttractorError(
      'BAD_FLAG',
      `--older-than ${flags.olderThan}: not an age (e.g. 30d, 12h, 2w, 90m).`,
    );
  const dir = path.resolve(ctx.io.cwd, root);
  if (!existsSync(dir)) {
    ctx.io.stdout(`No runs under ${root}.\n`);
    return EXIT_OK;
  }
  const pruned = await pruneRuns(dir, olderThanMs === undefined ? {} : { olderThanMs });
  if (flags.json) ctx.io.stdout(`${JSON.stringify(pruned, null, 2)}\n`);
  else if (pruned.length === 0) ctx.io.stdout(`No finished runs to prune under ${root}.\n`);
  else {
    for (const run of pruned)
      ctx.io.stdout(`removed ${run.status} run ${run.id} (${displayPath(ctx.io.cwd, run.run_dir)})\n`);
    ctx.io.stdout(`Pruned ${pruned.length} run${pruned.length === 1 ? '' : 's'}.\n`);
  }
  return EXIT_OK;
}
