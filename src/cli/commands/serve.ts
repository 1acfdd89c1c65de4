import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';

const EXAMPLES = `
Serves the HTTP API (and a live web view at /) for submitting, watching and answering runs.
Runs, their directories and pending questions are kept under --data-dir and survive a restart:
runs that were executing when the server died are listed as "interrupted" and continue with
POST /pipelines/{id}/resume, or all at start with --resume-interrupted.

Examples:
  $ attractor serve                                  # http://127.0.0.1:8000
  $ attractor serve --port 9000 --allow-tools --allow-dir ./pipelines
  $ ATTRACTOR_TOKEN=secret attractor serve --host 0.0.0.0

SIGTERM drains: no new runs, running ones pause at their next node with a checkpoint, then exit.
`;

export interface ServeFlags {
  host: string;
  port: string;
  dataDir: string;
  token?: string;
  maxConcurrentRuns: string;
  allowTools?: boolean;
  allowDir?: string[];
  corsOrigin?: string;
  resumeInterrupted?: boolean;
}

export function registerServeCommand(program: Command, ctx: CliContext): void {
  program
    .command('serve')
    .description('serve the HTTP API with SSE events, human gates over HTTP and a live web view')
    .option('--host <host>', 'address to listen on (anything but loopback needs --token)', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks a free one)', '8000')
    .option('--data-dir <dir>', 'where runs, events and pending questions are kept', '.attractor-server')
    .option('--token <token>', 'require "Authorization: Bearer <token>" (default: $ATTRACTOR_TOKEN)')
    .option('--max-concurrent-runs <n>', 'runs executing at once; the rest queue', '4')
    .option('--allow-tools', 'run tool commands of submitted pipelines (refused with 403 otherwise)')
    .option('--allow-dir <dir...>', 'directories "dot_path" may name files in')
    .option('--cors-origin <origin>', 'allow browser requests from this origin (no CORS otherwise)')
    .option('--resume-interrupted', 'continue runs a previous server left interrupted')
    .addHelpText('after', EXAMPLES)
    .action(async (flags: ServeFlags) => {
      const { runServe } = await import('../run-serve.js');
      ctx.setExitCode(await runServe(flags, ctx));
    });
}
