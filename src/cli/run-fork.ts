import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseDot } from '../compiler/parse/index.js';
import { forkRun } from '../run/fork-run.js';
import { forkTree } from '../run/fork-tree.js';
import { locateRun } from '../run/locate-run.js';
import { definedFields } from '../shared/defined-fields.js';
import { AttractorError } from '../shared/errors.js';
import { localIdentity } from '../shared/identity.js';
import { runActionRefusal } from '../shared/run-actions.js';
import type { CliContext } from './cli-context.js';
import type { ForkFlags } from './commands/fork.js';
import { displayPath } from './display-path.js';
import { readPipelineSource } from './read-pipeline-source.js';
import { runDirActionFacts } from './run-dir-action-facts.js';
import { runResume } from './run-resume.js';

/** `attractor fork <run> --from <node>`: make the fork's run directory, then run it as a resume runs. */
export async function runFork(
  run: string,
  file: string | undefined,
  flags: ForkFlags,
  ctx: CliContext,
): Promise<number> {
  const from = path.resolve(ctx.io.cwd, run);
  if (!existsSync(path.join(from, 'manifest.json')))
    throw new AttractorError(
      'FORK_NOT_A_RUN',
      `${run} is not a run directory (no manifest.json): nothing to fork.`,
    );
  if (flags.inPlace && flags.workdir)
    throw new AttractorError('BAD_FLAG', '--in-place and --workdir name two places for the fork: give one.');
  const original = locateRun(from);
  const refusal = runActionRefusal('fork', runDirActionFacts(original.checkpointPath));
  if (refusal) throw new AttractorError('FORK_REFUSED', `cannot fork ${run}: ${refusal.reason}`);
  const changed = file === undefined ? undefined : readPipelineSource(file, ctx.io.cwd);
  const source = changed?.text ?? original.source;
  const sourceFile = changed?.absolutePath ?? original.file;
  // Node ids and declared parameters only: parsed, not compiled (the run compiles it).
  const { graph } = parseDot(source, { file: sourceFile });
  const forked = forkRun({
    by: localIdentity(),
    from,
    node: flags.from,
    graph,
    source,
    file: sourceFile,
    ...definedFields({ set: flags.set }),
    ...(flags.logsDir !== undefined ? { runDir: path.resolve(ctx.io.cwd, flags.logsDir) } : {}),
  });
  const say = flags.json ? ctx.io.stderr : ctx.io.stdout;
  say(
    `Forked ${forked.origin.run_id} at ${forked.origin.node}: new run ${forked.runId} in ${displayPath(ctx.io.cwd, forked.runDir)}\n`,
  );
  const place = flags.inPlace
    ? { inPlace: true as const }
    : flags.workdir
      ? { workdir: path.resolve(ctx.io.cwd, flags.workdir) }
      : { beside: true as const };
  const tree = await forkTree({ fork: forked, place }).catch((error: unknown) => {
    // No half-made fork: its run directory goes with the files it could not get.
    rmSync(forked.runDir, { recursive: true, force: true });
    throw error;
  });
  if (tree) {
    const how =
      tree.how === 'worktree'
        ? ' (a git worktree)'
        : tree.how === 'in-place'
          ? " (the original's folder)"
          : '';
    say(
      `The fork works in ${displayPath(ctx.io.cwd, tree.workDir)}${how}, its files as ${forked.origin.node} found them.\n`,
    );
  }
  const { from: _node, set: _set, logsDir: _dir, inPlace: _inPlace, ...runFlags } = flags;
  return runResume(forked.runDir, undefined, tree ? { ...runFlags, workdir: tree.workDir } : runFlags, ctx);
}
