import { type Command, Option } from 'commander';
import { RUN_STATUSES } from '../../run/run-status.js';
import type { CliContext } from '../cli-context.js';

const EXAMPLES = `
Lists the runs under ROOT (default .attractor-runs), newest first: a run directory itself, or
folders holding run directories (the default layout is ROOT/<graph>/<run id>/). The status is read
from each run directory: running (a live process holds its run.lock), waiting (running, and a
human gate's question is open), paused (stopped by Ctrl-C or a spent budget), interrupted (it
stopped without saying so: killed, crashed; resume it), failed, completed, cancelled.
COST is at catalog prices, for runs that called models.

--prune removes the finished runs (completed, failed, cancelled) instead of listing them: their
run directories and the ref each kept in the git repository it worked in, so that repository's
gc can let their snapshots go (docs/guides/run-files.md). --older-than keeps those that ended
more recently (30d, 12h, 2w).

Examples:
  $ attractor runs
  $ attractor runs --status waiting
  $ attractor runs /tmp/runs --json
  $ attractor runs --prune --older-than 30d
`;

export interface RunsFlags {
  status?: string;
  json?: boolean;
  prune?: boolean;
  olderThan?: string;
}

export function registerRunsCommand(program: Command, ctx: CliContext): void {
  program
    .command('runs')
    .description('list runs: status, current node, duration, cost')
    .argument('[root]', 'where to look for run directories', '.attractor-runs')
    .addOption(
      new Option('--status <status>', 'only runs with this status').choices(
        RUN_STATUSES.filter((s) => s !== 'queued'),
      ),
    )
    .option('--json', 'print the runs as one JSON array')
    .option('--prune', "remove finished runs' folders and snapshot refs")
    .option('--older-than <age>', 'with --prune: only runs that ended longer ago than this (30d, 12h)')
    .addHelpText('after', EXAMPLES)
    .action(async (root: string, flags: RunsFlags) => {
      if (flags.prune || flags.olderThan !== undefined) {
        const { runPrune } = await import('../run-prune.js');
        ctx.setExitCode(await runPrune(root, flags, ctx));
        return;
      }
      const { runRuns } = await import('../run-runs.js');
      ctx.setExitCode(runRuns(root, flags, ctx));
    });
}
