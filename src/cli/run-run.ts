import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Interviewer } from '../actors/interviewers/interviewer.js';
import { createDefaultRegistry } from '../actors/registry.js';
import type { Diagnostic } from '../compiler/diagnostic.js';
import { withDryRunHandlers } from '../machines/dry-run.js';
import { resumePipeline, startPipeline } from '../machines/engine.js';
import { assertRunDirFree, DEFAULT_RUNS_ROOT } from '../machines/resolve-run-dir.js';
import type { PipelineRun, RunOptions, RunResult } from '../machines/run-types.js';
import { loadScenario } from '../machines/scenario.js';
import { createSimulatedRouter } from '../machines/simulated-router.js';
import { AttractorError } from '../shared/errors.js';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import type { CliContext } from './cli-context.js';
import { displayPath } from './display-path.js';
import { createEventPrinter, type EventPrinter } from './event-printer.js';
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK } from './exit-codes.js';
import { formatDiagnostic } from './format-diagnostic.js';
import { presentValidationFailure, validationFindings } from './present-validation-failure.js';
import { readPipelineSource } from './read-pipeline-source.js';
import type { RunFlags } from './run-flags.js';
import { formatRunSummary } from './run-summary.js';
import { errorWithShownFile, withShownFile } from './shown-locations.js';
import { createNonInteractiveInterviewer, createTerminalInterviewer } from './terminal-interviewer.js';

function chooseInterviewer(flags: RunFlags, ctx: CliContext): Interviewer {
  if (flags.autoApprove || flags.dryRun) return createNonInteractiveInterviewer({ autoApprove: true });
  if (process.stdin.isTTY && ctx.io.isTTY && !flags.json) return createTerminalInterviewer();
  return createNonInteractiveInterviewer({ autoApprove: false });
}

function buildOptions(flags: RunFlags, ctx: CliContext, onEvent: (e: PipelineEvent) => void): RunOptions {
  const simulated = flags.dryRun || flags.scenario !== undefined;
  if (!simulated) {
    throw new AttractorError(
      'NO_BACKEND',
      'no LLM backend is configured for codergen nodes yet: run with --dry-run or --scenario FILE (the agent session backend is on the roadmap).',
    );
  }
  // Accepted (a resume or script may pass them), but nothing here calls a model: say so once.
  if (flags.model || flags.provider) {
    const which = [flags.model ? '--model' : '', flags.provider ? '--provider' : '']
      .filter(Boolean)
      .join(' and ');
    ctx.io.stderr(
      `attractor: ${which} ${flags.model && flags.provider ? 'apply' : 'applies'} to real runs; this ${flags.dryRun ? 'dry run' : 'scenario run'} simulates every model call.\n`,
    );
  }
  const registry = createDefaultRegistry();
  const { maxSteps } = flags;
  const runDir = flags.logsDir ?? flags.logDir;
  return {
    ...(flags.goal !== undefined ? { goal: flags.goal } : {}),
    ...(flags.set ? { vars: flags.set } : {}),
    ...(flags.model ? { model: flags.model } : {}),
    ...(flags.provider ? { provider: flags.provider } : {}),
    ...(runDir !== undefined
      ? { runDir: path.resolve(ctx.io.cwd, runDir) }
      : { runsRoot: path.resolve(ctx.io.cwd, DEFAULT_RUNS_ROOT) }),
    ...(flags.checkpointDir ? { checkpointDir: path.resolve(ctx.io.cwd, flags.checkpointDir) } : {}),
    ...(maxSteps ? { maxSteps } : {}),
    ...(flags.scenario ? { scenario: loadScenario(path.resolve(ctx.io.cwd, flags.scenario)) } : {}),
    manifestOptions: {
      dry_run: flags.dryRun === true,
      ...(flags.scenario ? { scenario: path.resolve(ctx.io.cwd, flags.scenario) } : {}),
    },
    interviewer: chooseInterviewer(flags, ctx),
    llmRank: createSimulatedRouter(),
    workingDir: ctx.io.cwd,
    registry: flags.dryRun ? withDryRunHandlers(registry) : registry,
    onEvent,
  };
}

/** Ctrl-C once pauses after the current node; twice cancels at once. */
function handleInterrupts(
  run: PipelineRun,
  ctx: CliContext,
): { interrupted: () => boolean; dispose: () => void } {
  let count = 0;
  const onSigint = () => {
    count += 1;
    if (count === 1) {
      ctx.io.stderr('\nattractor: finishing the current node, then stopping (Ctrl-C again to abort now)\n');
      run.pause();
    } else {
      ctx.io.stderr('\nattractor: aborting now\n');
      run.cancel();
    }
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  return {
    interrupted: () => count > 0,
    dispose: () => {
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigint);
    },
  };
}

async function finish(
  run: PipelineRun,
  interviewer: Interviewer | undefined,
  printer: EventPrinter,
  show: (d: Diagnostic) => Diagnostic,
  flags: RunFlags,
  ctx: CliContext,
): Promise<number> {
  // Lint warnings go to stderr before the run's own output, so --json stdout stays events only.
  for (const warning of run.warnings)
    ctx.io.stderr(`${formatDiagnostic(show(warning), warning.loc?.file ?? '', ctx.colors)}\n`);
  const interrupts = handleInterrupts(run, ctx);
  // Nobody reads the output any more (`| head -1`): an interruption, not a reason to die mid-node.
  const unsubscribe = ctx.io.onStdoutClosed?.(() => {
    ctx.io.stderr('attractor: stdout was closed; stopping the run\n');
    run.cancel();
  });
  let result: RunResult;
  try {
    result = await run.result;
  } finally {
    unsubscribe?.();
    interrupts.dispose();
    // A console interviewer holds stdin open; release it so the process can exit.
    (interviewer as { close?: () => void } | undefined)?.close?.();
  }
  const say = flags.json ? ctx.io.stderr : ctx.io.stdout;
  const rel = displayPath(ctx.io.cwd, result.runDir);
  if (result.alreadyFinished) {
    say(`Run ${result.runId} already finished (${result.status}); nothing to resume.\n`);
    return result.status === 'completed' ? EXIT_OK : EXIT_FAILURE;
  }
  switch (result.status) {
    case 'completed':
    case 'failed': {
      const reason = result.failure?.reason;
      const line = formatRunSummary(result, {
        retried: printer.retried(),
        reasonShown: !flags.json && reason !== undefined && printer.shown(reason),
        runDir: rel,
        colors: ctx.colors,
      });
      say(`${line}\n`);
      return result.status === 'completed' ? EXIT_OK : EXIT_FAILURE;
    }
    case 'paused':
    case 'cancelled':
      ctx.io.stderr(
        `Interrupted at ${result.stoppedAt ?? '?'}. Resume with: attractor resume ${JSON.stringify(rel)}\n`,
      );
      return EXIT_INTERRUPTED;
  }
}

export async function runRun(file: string, flags: RunFlags, ctx: CliContext): Promise<number> {
  const source = readPipelineSource(file, ctx.io.cwd);
  const runDir = flags.logsDir ?? flags.logDir;
  // Checked here too, so the message names the directory as the user typed it.
  if (runDir !== undefined) assertRunDirFree(path.resolve(ctx.io.cwd, runDir), runDir);
  const printer = createEventPrinter(flags.json === true, ctx);
  const options = buildOptions(flags, ctx, printer.print);
  let run: PipelineRun;
  try {
    run = startPipeline({ ...options, source: source.text, file: source.absolutePath });
  } catch (error) {
    const findings = validationFindings(error);
    if (findings) {
      const shown = findings.map((d) => withShownFile(d, source));
      return presentValidationFailure(shown, source.file, ctx);
    }
    throw errorWithShownFile(error, source);
  }
  return finish(run, options.interviewer, printer, (d) => withShownFile(d, source), flags, ctx);
}

/** Without --dry-run or --scenario, a resume runs the way the run started (recorded in manifest.json). */
function withRecordedMode(flags: RunFlags, from: string): RunFlags {
  if (flags.dryRun || flags.scenario) return flags;
  const manifestPath = path.join(statSync(from).isDirectory() ? from : path.dirname(from), 'manifest.json');
  if (!existsSync(manifestPath)) return flags;
  try {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      options?: { dry_run?: boolean; scenario?: string };
    };
    return {
      ...flags,
      ...(manifest.options?.dry_run ? { dryRun: true } : {}),
      ...(manifest.options?.scenario ? { scenario: manifest.options.scenario } : {}),
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
  const printer = createEventPrinter(flags.json === true, ctx);
  const options = buildOptions(withRecordedMode(flags, target), ctx, printer.print);
  const { runDir: _runDir, runsRoot: _runsRoot, ...resumeOptions } = options;
  const run = resumePipeline({
    ...resumeOptions,
    from: path.resolve(ctx.io.cwd, from),
    ...(dotFile ? { dotFile: path.resolve(ctx.io.cwd, dotFile) } : {}),
  });
  return finish(run, options.interviewer, printer, (d) => d, flags, ctx);
}
