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

Examples:
  $ attractor runs
  $ attractor runs --status waiting
  $ attractor runs /tmp/runs --json
`;

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
    .addHelpText('after', EXAMPLES)
    .action(async (root: string, flags: { status?: string; json?: boolean }) => {
      const { runRuns } = await import('../run-runs.js');
      ctx.setExitCode(runRuns(root, flags, ctx));
    });
}
