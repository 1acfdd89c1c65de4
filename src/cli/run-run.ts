import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Interviewer } from '../actors/interviewers/interviewer.js';
import { createDefaultRegistry } from '../actors/registry.js';
import { withDryRunHandlers } from '../machines/dry-run.js';
import { resumePipeline, startPipeline } from '../machines/engine.js';
import { locateRun } from '../machines/locate-run.js';
import type { PipelineRun, RunOptions, RunResult } from '../machines/run-types.js';
import { loadScenario } from '../machines/scenario.js';
import { createSimulatedRouter } from '../machines/simulated-router.js';
import { AttractorError } from '../shared/errors.js';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import type { CliContext } from './cli-context.js';
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK } from './exit-codes.js';
import { formatDiagnostic } from './format-diagnostic.js';
import { formatEventLine } from './format-event-line.js';
import { readPipelineSource } from './read-pipeline-source.js';
import type { RunFlags } from './run-flags.js';
import { createNonInteractiveInterviewer, createTerminalInterviewer } from './terminal-interviewer.js';

function parseMaxSteps(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) {
    throw new AttractorError('BAD_FLAG', `--max-steps must be a positive whole number, got "${value}".`);
  }
  return n;
}

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
  const registry = createDefaultRegistry();
  const maxSteps = parseMaxSteps(flags.maxSteps);
  const logsDir = flags.logsDir ?? flags.logDir;
  return {
    ...(flags.goal !== undefined ? { goal: flags.goal } : {}),
    ...(flags.model ? { model: flags.model } : {}),
    ...(flags.provider ? { provider: flags.provider } : {}),
    logsDir: path.resolve(ctx.io.cwd, logsDir ?? '.attractor-runs'),
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

function eventPrinter(flags: RunFlags, ctx: CliContext): (e: PipelineEvent) => void {
  if (flags.json) return (e) => ctx.io.stdout(`${JSON.stringify(e)}\n`);
  return (e) => {
    const line = formatEventLine(e, ctx.colors);
    if (line !== undefined) ctx.io.stdout(`${line}\n`);
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
  flags: RunFlags,
  ctx: CliContext,
  closeTui?: () => Promise<void>,
): Promise<number> {
  // Lint warnings go to stderr before the run's own output, so --json stdout stays events only.
  if (!closeTui) printWarnings(run, ctx);
  const interrupts = handleInterrupts(run, ctx);
  let result: RunResult;
  try {
    result = await run.result;
  } finally {
    await closeTui?.();
    interrupts.dispose();
    // A console interviewer holds stdin open; release it so the process can exit.
    (interviewer as { close?: () => void } | undefined)?.close?.();
  }
  const say = flags.json ? ctx.io.stderr : ctx.io.stdout;
  const rel = path.relative(ctx.io.cwd, result.runDir) || '.';
  if (result.alreadyFinished) {
    say(`Run ${result.runId} already finished (${result.status}); nothing to resume.\n`);
    return result.status === 'completed' ? EXIT_OK : EXIT_FAILURE;
  }
  switch (result.status) {
    case 'completed':
      say(
        `${ctx.colors.green('Completed')} at ${result.stoppedAt ?? '?'} (quality: ${result.quality}). Run directory: ${rel}\n`,
      );
      return EXIT_OK;
    case 'failed':
      say(
        `${ctx.colors.red('Failed')}: ${result.failure?.reason ?? 'unknown reason'} (quality: failed). Run directory: ${rel}\n`,
      );
      return EXIT_FAILURE;
    case 'paused':
    case 'cancelled':
      ctx.io.stderr(
        `Interrupted at ${result.stoppedAt ?? '?'}. Resume with: attractor resume ${JSON.stringify(rel)}\n`,
      );
      return EXIT_INTERRUPTED;
  }
}

function printWarnings(run: PipelineRun, ctx: CliContext): void {
  for (const warning of run.warnings)
    ctx.io.stderr(`${formatDiagnostic(warning, warning.loc?.file ?? '', ctx.colors)}\n`);
}

/** A terminal gets the TUI unless `--no-tui`, `--json` or `CI` say otherwise (issue 9). */
function wantsTui(flags: RunFlags, ctx: CliContext): boolean {
  return (
    flags.tui !== false && !flags.json && ctx.io.isTTY && process.stdin.isTTY === true && !ctx.io.env['CI']
  );
}

/** Runs with the Ink TUI, loaded only now; gates are answered in it unless the run auto-approves. */
async function runInTui(
  flags: RunFlags,
  ctx: CliContext,
  pipeline: { source: string; file: string; replayFrom?: string },
  start: (options: RunOptions) => PipelineRun,
): Promise<number> {
  // React's development build costs several times the CPU per frame; a user's terminal gets production.
  process.env['NODE_ENV'] ??= 'production';
  const { startRunTui } = await import('../tui/start-run-tui.js');
  const tui = startRunTui({
    ...pipeline,
    ...(flags.goal !== undefined ? { goal: flags.goal } : {}),
    env: ctx.io.env,
  });
  const options = buildOptions(flags, ctx, tui.onEvent);
  const run = start(
    flags.autoApprove || flags.dryRun ? options : { ...options, interviewer: tui.interviewer },
  );
  printWarnings(run, ctx);
  tui.mount(run);
  return finish(run, undefined, flags, ctx, tui.close);
}

export async function runRun(file: string, flags: RunFlags, ctx: CliContext): Promise<number> {
  const source = readPipelineSource(file, ctx.io.cwd);
  if (wantsTui(flags, ctx)) {
    const pipeline = { source: source.text, file: source.absolutePath };
    return runInTui(flags, ctx, pipeline, (options) => startPipeline({ ...options, ...pipeline }));
  }
  const options = buildOptions(flags, ctx, eventPrinter(flags, ctx));
  const run = startPipeline({ ...options, source: source.text, file: source.absolutePath });
  return finish(run, options.interviewer, flags, ctx);
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
  // Checked before the run flags, so a stray directory is not reported as a missing LLM backend.
  if (statSync(target).isDirectory() && !existsSync(path.join(target, 'checkpoint.json'))) {
    throw new AttractorError('RESUME_NOT_FOUND', `${from} has no checkpoint.json: is it a run directory?`);
  }
  const resumeFrom = {
    from: path.resolve(ctx.io.cwd, from),
    ...(dotFile ? { dotFile: path.resolve(ctx.io.cwd, dotFile) } : {}),
  };
  if (wantsTui(flags, ctx)) {
    const located = locateRun(resumeFrom.from, resumeFrom.dotFile);
    const pipeline = { source: located.source, file: located.file, replayFrom: located.runDir };
    return runInTui(withRecordedMode(flags, target), ctx, pipeline, (o) =>
      resumePipeline({ ...o, ...resumeFrom }),
    );
  }
  const options = buildOptions(withRecordedMode(flags, target), ctx, eventPrinter(flags, ctx));
  const run = resumePipeline({ ...options, ...resumeFrom });
  return finish(run, options.interviewer, flags, ctx);
}
