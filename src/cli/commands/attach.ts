import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';

const EXAMPLES = `
Watches a run that another process executes (another terminal, a server, CI): replays its
events.jsonl, then follows it as it grows. On a terminal it opens the same TUI as
\`attractor run\`, and a human gate the run waits on can be answered from here (through the
run directory's questions/ and answers/ folders). Without a terminal it prints one line per
event, and ends with the line the run ended with (how, its quality, what it cost). Exits when the run ends (0 completed, 1 failed, 130 interrupted), or on q / Ctrl-C.
With --answer it answers the question the run waits on (or its next one) and exits, no TUI:
the answer must name one of the gate's options (its key, label or target); free text only
at a gate that takes it (human.freeform). --question ID answers that question only (its id
is in questions/ and in GET /pipelines/{id}/questions); each visit of a gate asks a new
question, so an id of an earlier visit is refused as closed.

Examples:
  $ attractor attach .attractor-runs/release/20261123T091454Z-4ldgch
  $ attractor attach .attractor-runs/release/20261123T091454Z-4ldgch --answer A
  $ attractor attach .attractor-runs/release/20261123T091454Z-4ldgch --question review-2 --answer R
`;

export function registerAttachCommand(program: Command, ctx: CliContext): void {
  program
    .command('attach')
    .description('watch (and answer the gates of) a run started elsewhere')
    .argument('<run-dir>', 'the run directory')
    .option('--no-tui', 'plain event lines even on a terminal')
    .option(
      '--answer <choice>',
      "answer the waiting gate: an option's key, label or target (free text where the gate takes it)",
    )
    .option('--question <id>', 'with --answer: answer this question only (refused when it is closed)')
    .addHelpText('after', EXAMPLES)
    .action(async (runDir: string, flags: { tui?: boolean; answer?: string; question?: string }) => {
      const { runAttach } = await import('../run-attach.js');
      ctx.setExitCode(await runAttach(runDir, flags, ctx));
    });
}
