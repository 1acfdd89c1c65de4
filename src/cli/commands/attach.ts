import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';

const EXAMPLES = `
Watches a run that another process executes (another terminal, a server, CI): replays its
events.jsonl, then follows it as it grows. On a terminal it opens the same TUI as
\`attractor run\`, and a human gate the run waits on can be answered from here (through the
run directory's questions/ and answers/ folders). Without a terminal it prints one line per
event. Exits when the run ends (0 completed, 1 failed, 130 interrupted), or on q / Ctrl-C.
With --answer it answers the question the run waits on (or its next one) and exits, no TUI.

Examples:
  $ attractor attach .attractor-runs/release/20261123T091454Z-4ldgch
  $ attractor attach .attractor-runs/release/20261123T091454Z-4ldgch --answer A
`;

export function registerAttachCommand(program: Command, ctx: CliContext): void {
  program
    .command('attach')
    .description('watch (and answer the gates of) a run started elsewhere')
    .argument('<run-dir>', 'the run directory')
    .option('--no-tui', 'plain event lines even on a terminal')
    .option('--answer <choice>', "answer the waiting gate (an option's key, label or target, or free text)")
    .addHelpText('after', EXAMPLES)
    .action(async (runDir: string, flags: { tui?: boolean; answer?: string }) => {
      const { runAttach } = await import('../run-attach.js');
      ctx.setExitCode(await runAttach(runDir, flags, ctx));
    });
}
