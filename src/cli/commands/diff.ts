import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';

const EXAMPLES = `
Prints what a run changed in its working folder, from the snapshots it took after each node
(docs/guides/run-files.md): the whole run (from the tree it started from to its newest
snapshot), or one node's latest visit with --node. --stat prints a diffstat instead.

Examples:
  $ attractor diff .attractor-runs/feature/20261127T101500Z-ab12cd
  $ attractor diff .attractor-runs/feature/20261127T101500Z-ab12cd --node implement --stat
`;

export interface DiffFlags {
  node?: string;
  stat?: boolean;
}

export function registerDiffCommand(program: Command, ctx: CliContext): void {
  program
    .command('diff')
    .description("print a run's (or one node's) changes to its working folder, from its snapshots")
    .argument('<run>', 'the run directory')
    .option('--node <id>', "only this node's changes (its latest visit)")
    .option('--stat', 'a diffstat rather than the patch')
    .addHelpText('after', EXAMPLES)
    .action(async (run: string, flags: DiffFlags) => {
      const { runDiff } = await import('../run-diff.js');
      ctx.setExitCode(await runDiff(run, flags, ctx));
    });
}
