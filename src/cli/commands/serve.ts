import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { collectRepeated } from '../collect-repeated.js';
import { addExecutionFlags } from './execution-flags.js';

const EXAMPLES = `
Serves the HTTP API (and a live web view at /) for submitting, watching and answering runs.
Runs, their directories and pending questions are kept under --data-dir and survive a restart
(default: ~/.local/state/attractor/serve/<folder>-<hash>, one per folder the server is started
in; never inside the folder runs work in, where a run could answer another's gate):
runs that were executing when the server died are listed as "interrupted" and continue with
POST /pipelines/{id}/resume, or all at start with --resume-interrupted.

Examples:
  $ attractor serve                                  # http://127.0.0.1:8000
  $ attractor serve --port 9000 --allow-tools --allow-dir ./pipelines
  $ ATTRACTOR_TOKEN=secret attractor serve --host 0.0.0.0 --allowed-host build.example.com

The server answers only requests naming it in their Host header (its address, the loopback
names on a loopback address, and --allowed-host names); requests that change something need
Content-Type: application/json and, from a browser, the server's own Origin or a --cors-origin.
With a token, everything but the page at / and /healthz needs "Authorization: Bearer <token>"
(401 otherwise); the web view asks for the token. Submitted pipelines read named files
(@file prompts, child DOT files) only inside the --allow-dir folders. See docs/guides/security.md.

Tool commands and agents work in the server's working directory, or in the "working_dir" a
submission names: an absolute path that, symlinks resolved, lies inside an --allow-workdir folder
(any other is refused with 403 WORKDIR_NOT_ALLOWED).

With --store postgres://…, runs, their events, checkpoints, stage records, questions and answers
are kept in that database (its schema is created or upgraded at start); run directories under
--data-dir are working copies. Runs execute on workers, which check a "working_dir" against their
own --allow-workdir folders (the server checks only its shape). See docs/guides/server.md.

Teams: --oidc-issuer, --oidc-client-id and --oidc-client-secret-file sign people in (sessions
in an HttpOnly cookie, kept in the store: a restart signs no one out), --access FILE grants them
roles, \`attractor token create\` makes personal tokens; once either exists every request but /,
/signin and /healthz needs a session or a token.
--four-eyes: nobody answers a gate of a run they started. See docs/guides/teams.md.

SIGTERM drains: no new runs, running ones pause at their next node with a checkpoint, then exit.
`;

export interface ServeFlags {
  host: string;
  port: string;
  dataDir?: string;
  store?: string;
  token?: string;
  access?: string;
  fourEyes?: boolean;
  oidcIssuer?: string;
  oidcClientId?: string;
  oidcClientSecretFile?: string;
  maxConcurrentRuns: string;
  allowTools?: boolean;
  allowDir?: string[];
  allowWorkdir?: string[];
  allowedHost?: string[];
  corsOrigin?: string[];
  resumeInterrupted?: boolean;
  unsandboxed?: boolean;
  otel?: boolean;
  notify?: string[];
  notifySecretFile?: string;
  notifyFormat?: string;
  publicUrl?: string;
  otelContent?: boolean;
}

export function registerServeCommand(program: Command, ctx: CliContext): void {
  addExecutionFlags(
    program
      .command('serve')
      .description('serve the HTTP API with SSE events, human gates over HTTP and a live web view')
      .option('--host <host>', 'address to listen on (anything but loopback needs --token)', '127.0.0.1')
      .option('--port <port>', 'port to listen on (0 picks a free one)', '8000')
      .option(
        '--data-dir <dir>',
        'where runs, events and pending questions are kept (default: under ~/.local/state/attractor/serve)',
      )
      .option(
        '--store <url>',
        'keep runs in PostgreSQL (postgres://user@host:port/db) instead of files under --data-dir',
      )
      .option('--token <token>', 'require "Authorization: Bearer <token>" (default: $ATTRACTOR_TOKEN)')
      .option(
        '--access <file>',
        'roles of signed-in people by user and group, YAML or JSON (docs/guides/teams.md)',
      )
      .option(
        '--oidc-issuer <url>',
        'sign people in with this OpenID Connect provider (docs/guides/teams.md)',
      )
      .option('--oidc-client-id <id>', "this server's client id at the provider")
      .option('--oidc-client-secret-file <file>', "a file holding this server's client secret")
      .option(
        '--four-eyes',
        'no gate may be answered by the person who started its run (needs personal tokens or sign-in)',
      )
      .option('--max-concurrent-runs <n>', 'runs executing at once; the rest queue', '4')
      .option('--allow-tools', 'run tool commands of submitted pipelines (refused with 403 otherwise)'),
  )
    .option(
      '--unsandboxed',
      'start without a sandbox, and honour pipelines\' sandbox="off" (docs/guides/security.md)',
    )
    .option(
      '--allow-dir <dir...>',
      'folders "dot_path" may name and submitted pipelines may read named files from (default: none)',
    )
    .option(
      '--allow-workdir <dir...>',
      'folders a submitted "working_dir" may lie in (default: none; without --store only)',
    )
    .option(
      '--allowed-host <name>',
      'another Host name (or name:port) to answer to (repeatable; required with --host 0.0.0.0)',
      collectRepeated,
    )
    .option(
      '--cors-origin <origin>',
      'let web pages from this origin call the API, e.g. https://app.example (repeatable; none by default)',
      collectRepeated,
    )
    .option('--resume-interrupted', 'continue runs a previous server left interrupted')
    .addHelpText('after', EXAMPLES)
    .action(async (flags: ServeFlags) => {
      const { runServe } = await import('../run-serve.js');
      ctx.setExitCode(await runServe(flags, ctx));
    });
}
