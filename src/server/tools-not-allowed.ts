import type { PipelineGraph } from '../compiler/ir.js';
import { describePipelineCommands, pipelineCommands } from '../compiler/pipeline-commands.js';
import { AttractorError } from '../shared/errors.js';

/**
 * Why `who` (this server, this worker) may not run `graph`: it runs commands of its own (`pipelineCommands`)
 * and `who` was started without `--allow-tools`. Undefined when it may: tools allowed, no command, or a
 * dry run (which runs none).
 */
export function toolsNotAllowed(
  graph: PipelineGraph,
  run: { allowTools: boolean; dryRun: boolean; who: string },
): AttractorError | undefined {
  if (run.allowTools || run.dryRun) return undefined;
  const commands = pipelineCommands(graph);
  if (commands.length === 0) return undefined;
  return new AttractorError(
    'TOOLS_NOT_ALLOWED',
    `this pipeline runs commands (${describePipelineCommands(commands)}); ${run.who} runs the commands of submitted pipelines only when started with --allow-tools (or submit it with "dry_run": true).`,
  );
}
