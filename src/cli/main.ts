/**
 * The `attractor` command line. Start-up stays lean: this file loads only commander; each command
 * imports the compiler (zod, ts-graphviz), XState or the WASM renderer inside its action.
 */
import { Command, CommanderError } from 'commander';
import { packageVersion } from '../shared/package-version.js';
import type { CliContext } from './cli-context.js';
import { type CliIo, processIo } from './cli-io.js';
import { colorsFor } from './colors.js';
import { registerAttachCommand } from './commands/attach.js';
import { registerAuditCommand } from './commands/audit.js';
import { registerCompileCommand } from './commands/compile.js';
import { registerDiffCommand } from './commands/diff.js';
import { registerForkCommand } from './commands/fork.js';
import { registerHelpCommand } from './commands/help.js';
import { registerLspCommand } from './commands/lsp.js';
import { registerResumeCommand } from './commands/resume.js';
import { registerRoleCommand } from './commands/role.js';
import { registerRunCommand } from './commands/run.js';
import { registerRunsCommand } from './commands/runs.js';
import { registerServeCommand } from './commands/serve.js';
import { registerTestCommand } from './commands/test.js';
import { registerTokenCommand } from './commands/token.js';
import { registerValidateCommand } from './commands/validate.js';
import { registerWorkerCommand } from './commands/worker.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from './exit-codes.js';
import { presentError } from './present-error.js';

/** Adds one subcommand (flags, help, lazy action) to the program. */
export type RegisterCommand = (program: Command, ctx: CliContext) => void;

/** Every command, in the order `--help` lists them. A new command is one file plus one entry here. */
export const COMMANDS: readonly RegisterCommand[] = [
  registerRunCommand,
  registerResumeCommand,
  registerForkCommand,
  registerAttachCommand,
  registerRunsCommand,
  registerDiffCommand,
  registerValidateCommand,
  registerCompileCommand,
  registerTestCommand,
  registerServeCommand,
  registerWorkerCommand,
  registerTokenCommand,
  registerRoleCommand,
  registerAuditCommand,
  registerLspCommand,
  registerHelpCommand,
];

const PROGRAM_HELP = `
Examples:
  $ attractor run examples/tour.dot --dry-run
  $ attractor run pipeline.dot --scenario scenario.json --json
  $ attractor resume .attractor-runs/tour/<run id>
  $ attractor runs --status waiting
  $ attractor fork .attractor-runs/tour/<run id> --from implement
  $ attractor validate examples/tour.dot
  $ attractor validate pipeline.dot --strict --json
  $ attractor compile pipeline.dot --format svg > pipeline.svg
  $ attractor test examples/ --reporter junit --output test-results.xml

Exit codes:
  0    success (validate: no errors; warnings allowed unless --strict)
  1    invalid pipeline, failed run, or unreadable / unparseable input
  2    bad command line (unknown command or flag, missing argument)
  70   internal error (a bug in attractor; re-run with --verbose for the stack)
  130  interrupted

Colours appear only when stdout is a terminal; NO_COLOR=1 turns them off, FORCE_COLOR=1 on.
`;

/**
 * The `attractor` program: every command with its flags and help, its output going to `ctx.io`, and
 * errors thrown (as `CommanderError`) instead of exiting. `main()` parses with it; so does the test
 * that checks the command lines the documents show, without running them.
 */
export function createProgram(ctx: CliContext): Command {
  const program = new Command('attractor');
  program
    .description('Run LLM pipelines written as GraphViz DOT files, compiled to XState machines.')
    .version(packageVersion(), '-V, --version', 'print the version and exit')
    .option('--verbose', 'print stack traces and extra detail on errors')
    .helpOption('-h, --help', 'show help (also: attractor <command> --help)')
    .helpCommand('help [command]', 'show help for a command')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => ctx.io.stdout(text),
      writeErr: (text) => ctx.io.stderr(text),
      // Parse errors are printed by presentUsageError below, in our format.
      outputError: () => {},
    })
    .addHelpText('after', PROGRAM_HELP);
  for (const register of COMMANDS) register(program, ctx);
  return program;
}

/**
 * Runs the CLI with `argv` (without `node` and the script path) and resolves to the exit code.
 * Never throws and never calls `process.exit`, so tests can drive it in-process.
 *
 * @example
 * const code = await main(['validate', 'pipeline.dot', '--json']);
 * process.exitCode = code;
 */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  let exitCode = EXIT_OK;
  // Read once the program has parsed `argv`; until then, from `argv` itself.
  const verbose = (): boolean => program.opts()['verbose'] === true || argv.includes('--verbose');
  const ctx: CliContext = {
    io,
    colors: colorsFor(io),
    verbose,
    setExitCode: (code) => {
      exitCode = code;
    },
  };
  const program = createProgram(ctx);

  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return presentUsageError(error, program, argv, io);
    return presentError(error, io, verbose());
  }
  return exitCode;
}

function presentUsageError(
  error: CommanderError,
  program: Command,
  argv: readonly string[],
  io: CliIo,
): number {
  switch (error.code) {
    case 'commander.helpDisplayed':
    case 'commander.version':
      return EXIT_OK;
    // `attractor` alone: commander has already printed the help on stderr.
    case 'commander.help':
      return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    case 'commander.executeSubCommandAsync':
      return EXIT_FAILURE;
    default: {
      const command = argv.find((arg) => program.commands.some((c) => c.name() === arg));
      const message = error.message.replace(/^error: /, '').replace(/\n+/g, ' ');
      io.stderr(`attractor: ${message}\n`);
      io.stderr(`Run 'attractor ${command ? `${command} ` : ''}--help' for usage.\n`);
      return EXIT_USAGE;
    }
  }
}
