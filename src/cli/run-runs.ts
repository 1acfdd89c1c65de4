import { existsSync } from 'node:fs';
import path from 'node:path';
import { listRuns } from '../run/list-runs.js';
import { AttractorError } from '../shared/errors.js';
import type { CliContext } from './cli-context.js';
import { EXIT_OK } from './exit-codes.js';
import { formatRunsTable } from './format-runs-table.js';

/** `attractor runs [ROOT]`: the runs found under ROOT, as a table or as JSON. */
export function runRuns(root: string, flags: { status?: string; json?: boolean }, ctx: CliContext): number {
  const dir = path.resolve(ctx.io.cwd, root);
  if (!existsSync(dir)) {
    // The default root is missing until the first run: not an error, just nothing to list.
    if (root !== '.attractor-runs')
      throw new AttractorError('RUNS_NOT_FOUND', `${root}: no such directory, so no runs to list.`);
  }
  const runs = existsSync(dir) ? listRuns(dir).filter((r) => !flags.status || r.status === flags.status) : [];
  if (flags.json) {
    ctx.io.stdout(`${JSON.stringify(runs, null, 2)}\n`);
    return EXIT_OK;
  }
  if (runs.length === 0) {
    ctx.io.stdout(`No ${flags.status ? `${flags.status} ` : ''}runs under ${root}.\n`);
    return EXIT_OK;
  }
  ctx.io.stdout(formatRunsTable(runs, ctx.colors));
  return EXIT_OK;
}
