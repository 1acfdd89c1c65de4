import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { parseContextSetFlag } from '../parse-set-flag.js';
import type { RunFlags } from '../run-flags.js';
import { addRunFlags } from './run.js';

const EXAMPLES = `
Starts a new run, in a new run directory, as if the original run had just reached NODE: the
context as it was when NODE was entered (the last time, if it ran more than once), the records
of the nodes completed before it copied, and NODE and everything after it run again. The
original is left as it was; the new manifest.json names it (forked_from). The fork runs the way
the original ran (dry, scenario, replay or real) unless flags say otherwise, and its cost starts
at zero.

The working tree is restored as NODE found it (from the original's snapshots): into --workdir
DIR when given (a new or empty folder), into the original's folder with --in-place (refused
while it has changes no snapshot holds), else into a new folder beside the original,
<folder>.fork-<id> (a git worktree when the original worked in a repository's top folder).

--set key=value changes a value first: a declared parameter's name sets vars.<name> (and
$name in prompts), any other key sets that context key. A FILE argument runs a changed
pipeline (a fixed prompt, say) from NODE instead of the run's copy.

Examples:
  $ attractor fork .attractor-runs/feature/20261127T101500Z-ab12cd --from implement
  $ attractor fork .attractor-runs/feature/20261127T101500Z-ab12cd --from implement fixed.dot
  $ attractor fork .attractor-runs/feature/20261127T101500Z-ab12cd --from review --set mode=fast
`;

export interface ForkFlags extends Omit<RunFlags, 'set'> {
  from: string;
  inPlace?: boolean;
  set?: Record<string, string>;
}

export function registerForkCommand(program: Command, ctx: CliContext): void {
  addRunFlags(
    program
      .command('fork')
      .description('start a new run from a node an earlier run reached (its context as it was then)')
      .argument('<run>', 'the run directory to fork')
      .argument('[file]', 'a changed pipeline (.dot) to run from the node (default: the run’s copy)')
      .requiredOption('--from <node>', 'the node the new run starts at')
      .option(
        '--set <key=value>',
        'change a parameter or context value first (repeatable)',
        parseContextSetFlag,
      )
      .option('--logs-dir <dir>', 'the new run directory (default: beside the original)')
      .option(
        '--in-place',
        "restore the node's files into the original's folder (refused if it has unsnapshotted changes)",
      ),
    { runDir: false },
  )
    .addHelpText('after', EXAMPLES)
    .action(async (run: string, file: string | undefined, flags: ForkFlags) => {
      const { runFork } = await import('../run-fork.js');
      ctx.setExitCode(await runFork(run, file, flags, ctx));
    });
}
