import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { addExecutionFlags } from './execution-flags.js';

const EXAMPLES = `
Executes the runs that servers started with the same --store schedule: it takes them from the
job queue in that PostgreSQL database, --concurrency at a time, and keeps their events,
checkpoints, stage records and questions there. A run waiting at a human gate holds no worker:
it is checkpointed as "waiting", and the answer (through any server) schedules it again on
whichever worker is free.

Where work happens: each run's records (its run directory) are in --data-dir/runs/<id>/run, and
its tool commands and agents work in --data-dir/runs/<id>/work, created when the run starts. A
submission may name another folder ("working_dir" in POST /pipelines): an absolute path that,
symlinks resolved, lies inside a folder given with --allow-workdir; any other is refused by
failing the run (WORKDIR_NOT_ALLOWED) before anything of it runs. A run that continues on
another machine works in the same path there, and its files travel with it: the working tree is
snapshotted after every node and each snapshot's new objects kept in the store (or pushed to
--git-remote), so the next worker restores the folder as the last node left it.

Examples:
  $ attractor worker --store postgres://attractor@db.internal/attractor
  $ attractor worker --store postgres://attractor@db.internal/attractor --concurrency 8 --allow-tools
  $ attractor worker --store postgres://attractor@db.internal/attractor --allow-tools --allow-workdir /srv/checkouts

It logs one line per run it takes ("took"), releases at a gate ("released"), or that ends or
stops here ("finished" with the status, "failed" with the reason): plain on stderr, or with
--json one object per line on stdout ({"event", "run_id", "at", and "attempt", "status" or
"reason"}).

SIGTERM drains: no new runs, running ones pause at their next node with a checkpoint, then exit.
See docs/guides/server.md.
`;

export interface WorkerFlags {
  store: string;
  dataDir: string;
  concurrency: string;
  leaseSeconds: string;
  allowTools?: boolean;
  unsandboxed?: boolean;
  otel?: boolean;
  notify?: string[];
  notifySecretFile?: string;
  notifyFormat?: string;
  publicUrl?: string;
  otelContent?: boolean;
  allowDir?: string[];
  allowWorkdir?: string[];
  gitRemote?: string;
  json?: boolean;
}

export function registerWorkerCommand(program: Command, ctx: CliContext): void {
  addExecutionFlags(
    program
      .command('worker')
      .description('execute runs scheduled on a PostgreSQL store by `attractor serve --store`')
      .requiredOption('--store <url>', 'the PostgreSQL store the servers use (postgres://user@host:port/db)')
      .option('--data-dir <dir>', "where this worker keeps its runs' working copies", '.attractor-worker')
      .option('--concurrency <n>', 'runs executing at once on this worker', '4')
      .option(
        '--lease-seconds <n>',
        'a run continues on another worker this long after its worker died',
        '30',
      )
      .option('--allow-tools', 'run tool commands of the pipelines it executes (they fail otherwise)'),
  )
    .option(
      '--unsandboxed',
      'start without a sandbox, and honour pipelines\' sandbox="off" (docs/guides/security.md)',
    )
    .option('--allow-dir <dir...>', 'folders pipelines may read named files from (default: none)')
    .option(
      '--allow-workdir <dir...>',
      'folders a submitted "working_dir" may lie in (default: none; runs work in --data-dir/runs/<id>/work)',
    )
    .option(
      '--git-remote <url>',
      "push runs' working-tree snapshots to this git repository instead of the store (every worker must reach it)",
    )
    .option('--json', 'log one JSON object per line on stdout for each run it takes, releases or ends')
    .addHelpText('after', EXAMPLES)
    .action(async (flags: WorkerFlags) => {
      const { runWorker } = await import('../run-worker.js');
      ctx.setExitCode(await runWorker(flags, ctx));
    });
}
