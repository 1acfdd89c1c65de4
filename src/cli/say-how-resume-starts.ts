import { parseDot } from '../compiler/parse/index.js';
import { readCheckpoint } from '../machines/checkpoint.js';
import type { locateRun } from '../machines/locate-run.js';
import { failedRunRestart } from '../machines/restart-after-failure.js';
import type { CliContext } from './cli-context.js';
import { EXIT_FAILURE, EXIT_OK } from './exit-codes.js';
import type { RunFlags } from './run-flags.js';

/**
 * Before anything that could ask for a key or an agent: a completed run says so and exits 0; a failed
 * run says it starts again at the node that failed (or exits 1 when nothing names one). Returns the
 * exit code when there is nothing to resume.
 */
export function sayHowResumeStarts(
  found: ReturnType<typeof locateRun>,
  flags: RunFlags,
  ctx: CliContext,
): number | undefined {
  const checkpoint = readCheckpoint(found.checkpointPath);
  const say = flags.json ? ctx.io.stderr : ctx.io.stdout;
  if (checkpoint.status === 'completed') {
    say(`Run ${checkpoint.run_id} already completed at ${checkpoint.current_node}; nothing to resume.\n`);
    return EXIT_OK;
  }
  if (checkpoint.status !== 'failed') return undefined;
  // Only the node ids matter here: parsed, not compiled (no parameters, no files read).
  const { graph } = parseDot(found.source, { file: found.file });
  const restart = failedRunRestart(checkpoint, graph);
  const reason = checkpoint.failure?.reason ?? 'failed';
  if (!restart) {
    say(
      `Run ${checkpoint.run_id} failed (${reason}) and names no node to start again from; nothing to resume.\n`,
    );
    return EXIT_FAILURE;
  }
  ctx.io.stderr(
    `attractor: run ${checkpoint.run_id} failed at ${restart.node} (${reason}); resuming there, with its retries renewed.\n`,
  );
  return undefined;
}
