import { parseDot } from '../compiler/parse/index.js';
import { readCheckpoint } from '../run/checkpoint.js';
import type { locateRun } from '../run/locate-run.js';
import { failedRunRestart } from '../run/restart-after-failure.js';
import { runActionRefusal } from '../shared/run-actions.js';
import type { CliContext } from './cli-context.js';
import { EXIT_FAILURE, EXIT_OK } from './exit-codes.js';
import { runDirActionFacts } from './run-dir-action-facts.js';
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
  // The rule the server and the web view follow too: only a completed run is refused here (a live
  // run's lock refuses it later, naming its process).
  if (runActionRefusal('resume', runDirActionFacts(found.checkpointPath))) {
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
