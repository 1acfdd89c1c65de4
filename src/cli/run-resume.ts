import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { readCheckpoint } from '../run/checkpoint.js';
import { confirmInterruptedRerun } from '../run/confirm-interrupted-rerun.js';
import { checkpointVars, compileRun, resumePipeline } from '../run/engine.js';
import { locateRun } from '../run/locate-run.js';
import { definedFields } from '../shared/defined-fields.js';
import { AttractorError } from '../shared/errors.js';
import type { CliContext } from './cli-context.js';
import { cliReadScope } from './cli-read-scope.js';
import { createEventPrinter } from './event-printer.js';
import { EXIT_FAILURE } from './exit-codes.js';
import type { RunFlags } from './run-flags.js';
import { finish, openInspection, openTui, printWarnings, startWith } from './run-lifecycle.js';
import { buildRun, pipelineSettings } from './run-setup.js';
import { sayHowResumeStarts } from './say-how-resume-starts.js';
import { createNonInteractiveInterviewer } from './terminal-interviewer.js';

/** Without --dry-run or --scenario, a resume runs the way the run started (recorded in manifest.json). */
function withRecordedMode(flags: RunFlags, from: string): RunFlags {
  const manifestPath = path.join(statSync(from).isDirectory() ? from : path.dirname(from), 'manifest.json');
  if (!existsSync(manifestPath)) return flags;
  try {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      options?: { dry_run?: boolean; scenario?: string; workdir?: string; replay?: string };
    };
    const o = manifest.options;
    // The run's own folder, deleted since: made again, and its files come back from the run's snapshot.
    if (o?.workdir && !flags.workdir && !existsSync(o.workdir)) mkdirSync(o.workdir, { recursive: true });
    // A mode named on the command line wins; the folder the run's files are in is still the run's.
    if (flags.dryRun || flags.scenario)
      return o?.workdir && !flags.workdir ? { ...flags, workdir: o.workdir } : flags;
    return {
      ...flags,
      ...(o?.dry_run ? { dryRun: true } : {}),
      ...(o?.scenario ? { scenario: o.scenario } : {}),
      ...(o?.workdir && !flags.workdir ? { workdir: o.workdir } : {}),
      ...(o?.replay && !flags.replay && !flags.record ? { replay: o.replay } : {}),
    };
  } catch {
    return flags;
  }
}

/** A checkpoint is a JSON object with a `current_node`; anything else (a DOT file, say) is not. */
function looksLikeCheckpoint(file: string): boolean {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof parsed === 'object' && parsed !== null && 'current_node' in parsed;
  } catch {
    return false;
  }
}

/** `attractor resume <run-dir>`: continue a run where it stopped, the way it started (dry, scenario or real). */
export async function runResume(
  from: string,
  dotFile: string | undefined,
  flags: RunFlags,
  ctx: CliContext,
): Promise<number> {
  if (from.trim() === '') {
    throw new AttractorError('RESUME_NOT_FOUND', 'nothing to resume: the run directory argument is empty.');
  }
  const target = path.resolve(ctx.io.cwd, from);
  if (!existsSync(target)) {
    throw new AttractorError('RESUME_NOT_FOUND', `nothing to resume at ${from}: no such file or directory.`);
  }
  // Checked before the run flags, so a stray directory or a DOT file is not reported as a missing LLM backend.
  if (statSync(target).isDirectory()) {
    if (!existsSync(path.join(target, 'checkpoint.json')))
      throw new AttractorError('RESUME_NOT_FOUND', `${from} has no checkpoint.json: is it a run directory?`);
  } else if (!looksLikeCheckpoint(target)) {
    throw new AttractorError(
      'RESUME_NOT_A_RUN',
      `${from} is not a run directory or a checkpoint file, so there is nothing to resume; to start a run of a pipeline: attractor run ${from}`,
    );
  }
  const found = locateRun(target, dotFile ? path.resolve(ctx.io.cwd, dotFile) : undefined);
  const early = sayHowResumeStarts(found, flags, ctx);
  if (early !== undefined) return early;
  const recorded = withRecordedMode(flags, target);
  const readScope = cliReadScope(found.file, ctx.io.cwd, flags.allowRead);
  const checkpoint = readCheckpoint(found.checkpointPath);
  const compiled = compileRun({
    source: found.source,
    file: found.file,
    ...pipelineSettings(recorded, readScope),
    // The values the run started with, whatever the flags say.
    vars: checkpointVars(checkpoint),
  });
  const printer = createEventPrinter(flags.json === true, ctx);
  const tui = await openTui(recorded, ctx, { graph: compiled.graph }, found.runDir);
  const built = await buildRun(compiled, recorded, ctx, tui ? tui.onEvent : printer.print, {
    readScope,
    initialUsage: checkpoint.usage,
    ...(tui ? { interviewer: tui.interviewer } : {}),
  });
  const { runDir: _runDir, runsRoot: _runsRoot, vars: _vars, ...resumeOptions } = built.options;
  const decision = await confirmInterruptedRerun({
    from: target,
    ...(dotFile ? { dotFile: path.resolve(ctx.io.cwd, dotFile) } : {}),
    interviewer: resumeOptions.interviewer ?? createNonInteractiveInterviewer({ autoApprove: false }),
  });
  if (decision.needed && !decision.rerun) {
    ctx.io.stderr(
      `Not resumed: "${decision.node}" was not run again. The run is unchanged; resume it when it is safe.\n`,
    );
    await built.options.telemetry?.shutdown();
    return EXIT_FAILURE;
  }
  const inspection = await openInspection(flags, ctx);
  const run = await startWith(inspection, tui, (inspect) =>
    resumePipeline({
      ...resumeOptions,
      ...definedFields({ inspect }),
      onWarnings: printWarnings(ctx, (d) => d),
      from: path.resolve(ctx.io.cwd, from),
      ...(dotFile ? { dotFile: path.resolve(ctx.io.cwd, dotFile) } : {}),
      compiled,
    }),
  );
  built.real?.setRunDir(run.runDir);
  try {
    return await finish(run, built.interviewer, printer, flags, ctx, inspection, tui);
  } finally {
    await built.options.telemetry?.shutdown();
  }
}
