import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import type { RunFlags } from '../run-flags.js';
import { addRunFlags } from './run.js';

const EXAMPLES = `
Continues an interrupted run from its checkpoint: completed nodes are not run again, the
interrupted node is. The run directory keeps a copy of the DOT source, so the file
argument is optional. A failed run starts again at the node that failed (its retries
renewed), once you have fixed what made it fail; the first line says so. Resuming a
completed run says so and exits 0, before any provider key is checked. A gate that was
waiting when the run stopped asks its question again under the same id, and takes an
answer given meanwhile (attractor attach <run-dir> --answer <key>).

Examples:
  $ attractor resume .attractor-runs/tour/20261122T120000Z-ab12cd
  $ attractor resume /tmp/ckpts/checkpoint_1732277000000.json --pipeline-dot pipeline.dot
`;

export function registerResumeCommand(program: Command, ctx: CliContext): void {
  addRunFlags(
    program
      .command('resume')
      .description('resume a run from its run directory or a checkpoint file')
      .argument('<run>', 'run directory, or checkpoint .json file')
      .argument('[file]', 'the pipeline (.dot), when not the copy in the run directory')
      .option('--pipeline-dot <file>', 'the pipeline (.dot); same as the second argument')
      .option(
        '--restore-tree',
        "reset the working tree to the run's last snapshot (files it lacks removed, ignored files kept)",
      ),
    { runDir: false },
  )
    .addHelpText('after', EXAMPLES)
    .action(async (run: string, file: string | undefined, flags: RunFlags & { pipelineDot?: string }) => {
      const { runResume } = await import('../run-resume.js');
      ctx.setExitCode(await runResume(run, file ?? flags.pipelineDot, flags, ctx));
    });
}
