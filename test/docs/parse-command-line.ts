import { type Command, CommanderError } from 'commander';
import type { CliContext } from '../../src/cli/cli-context.js';
import { colorsFor } from '../../src/cli/colors.js';
import { createProgram } from '../../src/cli/main.js';

const silentIo = () => ({ stdout: () => {}, stderr: () => {}, env: {}, isTTY: false, cwd: process.cwd() });

/** The real `attractor` program, every command's action replaced by nothing: it parses, it never runs. */
function parseOnlyProgram() {
  const io = silentIo();
  const ctx: CliContext = { io, colors: colorsFor(io), verbose: () => false, setExitCode: () => {} };
  const program = createProgram(ctx);
  // Subcommands too (`attractor token create`): nothing a document shows may run.
  const silence = (commands: readonly Command[]): void => {
    for (const command of commands) {
      command.action(() => {});
      silence(command.commands);
    }
  };
  silence(program.commands);
  return program;
}

/**
 * Parses `argv` (the words after `attractor`) with the CLI's own parser, flags' value checks included
 * (`--max-cost abc`), and answers why it is refused, or undefined when it parses. A `mention` (a command
 * named in prose: "`attractor resume --restore-tree` resets it") may leave out the arguments and required
 * flags a whole command line needs: each is supplied, so that what it does say is still checked.
 */
export async function refusalOf(argv: readonly string[], mention = false): Promise<string | undefined> {
  let words = [...argv];
  for (let attempt = 0; attempt < 5; attempt++) {
    const error = await parseError(words);
    if (!error) return undefined;
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return undefined;
    const required = /required option '(--[\w-]+)/.exec(error.message)?.[1];
    if (mention && error.code === 'commander.missingArgument') words = [...words, '1'];
    else if (mention && error.code === 'commander.missingMandatoryOptionValue' && required)
      words = [...words, required, '1'];
    else return error.message;
  }
  return `still incomplete after five supplied arguments: ${words.join(' ')}`;
}

async function parseError(argv: readonly string[]): Promise<CommanderError | undefined> {
  try {
    await parseOnlyProgram().parseAsync([...argv], { from: 'user' });
    return undefined;
  } catch (error) {
    if (error instanceof CommanderError) return error;
    throw error;
  }
}

/** The long flags a command takes (the program's own, `--verbose` and `--help`, included). */
export function flagsOf(commandName: string): Set<string> | undefined {
  const program = parseOnlyProgram();
  const command = program.commands.find((c) => c.name() === commandName);
  if (!command) return undefined;
  const longs = [...command.options, ...program.options].flatMap((option) =>
    option.long ? [option.long] : [],
  );
  return new Set([...longs, '--help']);
}
