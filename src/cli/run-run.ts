import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { PreparedAgents } from '../actors/acp/prepare-agent-backend.js';
import { withAgentBackends } from '../actors/acp/with-agent-backends.js';
import type { Interviewer } from '../actors/interviewers/interviewer.js';
import { createDefaultRegistry } from '../actors/registry.js';
import { createSimulatedBackend } from '../actors/simulated-backend.js';
import type { Diagnostic } from '../compiler/diagnostic.js';
import { confirmInterruptedRerun } from '../machines/confirm-interrupted-rerun.js';
import { withDryRunHandlers } from '../machines/dry-run.js';
import { resumePipeline, startPipeline } from '../machines/engine.js';
import { locateRun } from '../machines/locate-run.js';
import { assertRunDirFree, DEFAULT_RUNS_ROOT } from '../machines/resolve-run-dir.js';
import type { PipelineRun, RunOptions, RunResult } from '../machines/run-types.js';
import { loadScenario } from '../machines/scenario.js';
import { createSimulatedRouter } from '../machines/simulated-router.js';
import { AttractorError } from '../shared/errors.js';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import type { RunTui } from '../tui/start-run-tui.js';
import type { CliContext } from './cli-context.js';
import { cliReadScope } from './cli-read-scope.js';
import { displayPath } from './display-path.js';
import { createEventPrinter, type EventPrinter } from './event-printer.js';
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK } from './exit-codes.js';
import { formatDiagnostic } from './format-diagnostic.js';
import { DEFAULT_INSPECT_PORT, type InspectStream } from './inspect-stream.js';
import { loadTui } from './load-tui.js';
import { presentValidationFailure, validationFindings } from './present-validation-failure.js';
import { readPipelineSource } from './read-pipeline-source.js';
import { type RealRunInput, type RealRunServices, realRunServices } from './real-run-services.js';
import type { RunFlags } from './run-flags.js';
import { formatRunSummary } from './run-summary.js';
import { sayHowResumeStarts } from './say-how-resume-starts.js';
import { errorWithShownFile, withShownFile } from './shown-locations.js';
import {
  type AnsweringInterviewer,
  createAnsweringInterviewer,
  createNonInteractiveInterviewer,
} from './terminal-interviewer.js';

/** Without the TUI, a gate asks on stderr/stdin and in the run directory's answer channel (D18). */
function chooseInterviewer(flags: RunFlags): Interviewer | AnsweringInterviewer {
  if (flags.autoApprove || flags.dryRun) return createNonInteractiveInterviewer({ autoApprove: true });
  return createAnsweringInterviewer();
}

/**
 * The answer channel learns the run directory from the run's first event, before any node runs (a
 * resumed run may ask at once, before `startPipeline` has even returned).
 */
function learningRunDir(
  interviewer: Interviewer | AnsweringInterviewer,
  onEvent: (e: PipelineEvent) => void,
): (e: PipelineEvent) => void {
  if (!('setRunDir' in interviewer)) return onEvent;
  return (event) => {
    if (event.kind === 'pipeline.start' || event.kind === 'pipeline.resume') {
      interviewer.setRunDir(String(event.data['run_dir']));
    }
    onEvent(event);
  };
}

function buildOptions(
  flags: RunFlags,
  ctx: CliContext,
  onEvent: (e: PipelineEvent) => void,
  pipeline: RealRunInput,
  agents?: PreparedAgents,
): RunOptions & { real?: RealRunServices } {
  const simulated = flags.dryRun || flags.scenario !== undefined;
  // Nodes driven by external ACP agents need no model of ours: a run whose every LLM node has an agent
  // needs no keys (a dry run starts no agent).
  const real = simulated || agents?.coversAllCodergen ? undefined : realRunServices(flags, ctx, pipeline);
  if (simulated && (flags.model || flags.provider)) {
    ctx.io.stderr(
      'attractor: note: --model and --provider apply to real runs; this run simulates its models\n',
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
  const interviewer = chooseInterviewer(flags);
  const { readScope } = pipeline;
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
      // A resume works where the run worked, and a replayed run keeps replaying.
      ...(real ? { workdir: real.workingDir } : {}),
      ...(real && flags.replay ? { replay: path.resolve(ctx.io.cwd, flags.replay) } : {}),
    },
    interviewer,
    ...(real
      ? { real, backend: real.backend, llmRank: real.llmRank, accounting: real.accounting }
      : // --dry-run and --scenario simulate the LLM on purpose; the library never does so on its own.
        { backend: createSimulatedBackend(), llmRank: createSimulatedRouter() }),
    ...(agents && !flags.dryRun
      ? { backend: withAgentBackends(real?.backend ?? createSimulatedBackend(), agents.acp) }
      : {}),
    workingDir: real?.workingDir ?? ctx.io.cwd,
    ...(readScope ? { readScope } : {}),
    registry: flags.dryRun ? withDryRunHandlers(registry) : registry,
    onEvent: learningRunDir(interviewer, onEvent),
  };
}

/** Nodes with `agent` run through external ACP agents: checked (binaries on PATH) before the run starts. */
async function prepareAgents(
  source: string,
  file: string,
  flags: RunFlags,
  ctx: CliContext,
): Promise<PreparedAgents | undefined> {
  if (flags.dryRun) return undefined;
  const { prepareAgentBackend } = await import('../actors/acp/prepare-agent-backend.js');
  return prepareAgentBackend({
    source,
    file,
    readScope: cliReadScope(file, ctx.io.cwd, flags.allowRead),
    workingDir: ctx.io.cwd,
    env: ctx.io.env,
    autoApprove: flags.autoApprove === true,
    fallback: createSimulatedBackend(),
  });
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
  inspection?: InspectStream,
  tui?: RunTui,
): Promise<number> {
  // Lint warnings go to stderr before the run's own output, so --json stdout stays events only.
  for (const warning of run.warnings)
    ctx.io.stderr(`${formatDiagnostic(show(warning), warning.loc?.file ?? '', ctx.colors)}\n`);
  tui?.mount(run);
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
    await tui?.close();
    unsubscribe?.();
    interrupts.dispose();
    await inspection?.close();
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
      if (result.budgetExceeded) {
        ctx.io.stderr(
          `${ctx.colors.yellow('Paused')} at ${result.stoppedAt ?? '?'}: ${result.budgetExceeded}. Resume with a higher budget: attractor resume ${JSON.stringify(rel)} --max-cost USD\n`,
        );
        return EXIT_FAILURE;
      }
      ctx.io.stderr(
        `Interrupted at ${result.stoppedAt ?? '?'}. Resume with: attractor resume ${JSON.stringify(rel)}\n`,
      );
      return EXIT_INTERRUPTED;
    case 'cancelled':
      ctx.io.stderr(
        `Interrupted at ${result.stoppedAt ?? '?'}. Resume with: attractor resume ${JSON.stringify(rel)}\n`,
      );
      return EXIT_INTERRUPTED;
  }
}

/** `--inspect [PORT]` and `--inspect-log FILE`: opened before the run, closed when it ends. */
async function openInspection(flags: RunFlags, ctx: CliContext): Promise<InspectStream | undefined> {
  if (flags.inspect === undefined && flags.inspectLog === undefined) return undefined;
  const port = flags.inspect === undefined ? undefined : parsePort(flags.inspect);
  const { openInspectStream } = await import('./inspect-stream.js');
  if (flags.inspectOrigin && port === undefined) {
    throw new AttractorError(
      'BAD_FLAG',
      '--inspect-origin needs --inspect: it says who may read that stream.',
    );
  }
  const stream = await openInspectStream({
    ...(port !== undefined ? { port } : {}),
    ...(flags.inspectLog ? { logFile: path.resolve(ctx.io.cwd, flags.inspectLog) } : {}),
    ...(flags.inspectOrigin ? { origins: flags.inspectOrigin } : {}),
  });
  if (stream.url) ctx.io.stderr(`attractor: inspector at ${stream.url} (open it in a browser)\n`);
  return stream;
}

function parsePort(value: boolean | string): number {
  if (value === true) return DEFAULT_INSPECT_PORT;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw new AttractorError('BAD_FLAG', `--inspect takes a port number (0-65535), got "${String(value)}".`);
  }
  return n;
}

/** A terminal gets the TUI unless `--no-tui`, `--json` or `CI` say otherwise (issue 9). */
function wantsTui(flags: RunFlags, ctx: CliContext): boolean {
  return (
    flags.tui !== false && !flags.json && ctx.io.isTTY && process.stdin.isTTY === true && !ctx.io.env['CI']
  );
}

/** The Ink TUI, loaded only now; it answers gates unless the run auto-approves them. */
async function openTui(
  flags: RunFlags,
  ctx: CliContext,
  pipeline: { source: string; file: string; replayFrom?: string },
): Promise<RunTui | undefined> {
  if (!wantsTui(flags, ctx)) return undefined;
  const { startRunTui } = await loadTui();
  return startRunTui({
    ...pipeline,
    readScope: cliReadScope(pipeline.file, ctx.io.cwd, flags.allowRead),
    ...(flags.goal !== undefined ? { goal: flags.goal } : {}),
    env: ctx.io.env,
  });
}

const tuiInterviewer = (tui: RunTui | undefined, flags: RunFlags) =>
  tui && !flags.autoApprove && !flags.dryRun ? { interviewer: tui.interviewer } : {};

/**
 * Starts the run, its actor system inspected by `--inspect` and by the TUI (which follows the live
 * actor); if starting throws, the inspection server must not keep the process alive.
 */
async function startWith(
  inspection: InspectStream | undefined,
  tui: RunTui | undefined,
  start: (inspect?: RunOptions['inspect']) => PipelineRun,
): Promise<PipelineRun> {
  const inspect: RunOptions['inspect'] =
    inspection && tui
      ? (e) => {
          inspection.inspect(e);
          tui.inspect(e);
        }
      : inspection
        ? (e) => inspection.inspect(e)
        : tui?.inspect;
  try {
    return start(inspect);
  } catch (error) {
    await inspection?.close();
    throw error;
  }
}

export async function runRun(file: string, flags: RunFlags, ctx: CliContext): Promise<number> {
  const source = readPipelineSource(file, ctx.io.cwd);
  // Checked first: a bad --allow-read is a flag error, whatever else the run would say.
  const readScope = cliReadScope(source.absolutePath, ctx.io.cwd, flags.allowRead);
  const runDir = flags.logsDir ?? flags.logDir;
  // Checked here too, so the message names the directory as the user typed it.
  if (runDir !== undefined) assertRunDirFree(path.resolve(ctx.io.cwd, runDir), runDir);
  const agents = await prepareAgents(source.text, source.absolutePath, flags, ctx);
  const printer = createEventPrinter(flags.json === true, ctx);
  const tui = await openTui(flags, ctx, { source: source.text, file: source.absolutePath });
  let options: ReturnType<typeof buildOptions>;
  let run: PipelineRun;
  let inspection: InspectStream | undefined;
  try {
    // Real runs compile the pipeline for their preflight: its validation failures read the same either way.
    options = buildOptions(
      flags,
      ctx,
      tui ? tui.onEvent : printer.print,
      { source: source.text, file: source.absolutePath, readScope },
      agents,
    );
    const { real: _real, ...runOptions } = options;
    inspection = await openInspection(flags, ctx);
    run = await startWith(inspection, tui, (inspect) =>
      startPipeline({
        ...runOptions,
        ...tuiInterviewer(tui, flags),
        ...(inspect ? { inspect } : {}),
        source: source.text,
        file: source.absolutePath,
      }),
    );
  } catch (error) {
    const findings = validationFindings(error);
    if (findings) {
      const shown = findings.map((d) => withShownFile(d, source));
      return presentValidationFailure(shown, source.file, ctx);
    }
    throw errorWithShownFile(error, source);
  }
  options.real?.setRunDir(run.runDir);
  return finish(
    run,
    options.interviewer,
    printer,
    (d) => withShownFile(d, source),
    flags,
    ctx,
    inspection,
    tui,
  );
}

/** Without --dry-run or --scenario, a resume runs the way the run started (recorded in manifest.json). */
function withRecordedMode(flags: RunFlags, from: string): RunFlags {
  if (flags.dryRun || flags.scenario) return flags;
  const manifestPath = path.join(statSync(from).isDirectory() ? from : path.dirname(from), 'manifest.json');
  if (!existsSync(manifestPath)) return flags;
  try {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      options?: { dry_run?: boolean; scenario?: string; workdir?: string; replay?: string };
    };
    const o = manifest.options;
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
  const dot = dotFile
    ? path.resolve(ctx.io.cwd, dotFile)
    : path.join(statSync(target).isDirectory() ? target : path.dirname(target), 'pipeline.dot');
  const agents = existsSync(dot)
    ? await prepareAgents(readFileSync(dot, 'utf8'), dot, recorded, ctx)
    : undefined;
  const printer = createEventPrinter(flags.json === true, ctx);
  const tui = await openTui(recorded, ctx, {
    source: found.source,
    file: found.file,
    replayFrom: found.runDir,
  });
  const options = buildOptions(
    recorded,
    ctx,
    tui ? tui.onEvent : printer.print,
    {
      source: found.source,
      file: found.file,
      checkpointPath: found.checkpointPath,
      readScope: cliReadScope(found.file, ctx.io.cwd, flags.allowRead),
    },
    agents,
  );
  const { runDir: _runDir, runsRoot: _runsRoot, real, ...resumeOptions } = options;
  const decision = await confirmInterruptedRerun({
    from: target,
    ...(dotFile ? { dotFile: path.resolve(ctx.io.cwd, dotFile) } : {}),
    interviewer: options.interviewer ?? createNonInteractiveInterviewer({ autoApprove: false }),
  });
  if (decision.needed && !decision.rerun) {
    ctx.io.stderr(
      `Not resumed: "${decision.node}" was not run again. The run is unchanged; resume it when it is safe.\n`,
    );
    return EXIT_FAILURE;
  }
  const inspection = await openInspection(flags, ctx);
  const run = await startWith(inspection, tui, (inspect) =>
    resumePipeline({
      ...resumeOptions,
      ...tuiInterviewer(tui, recorded),
      ...(inspect ? { inspect } : {}),
      from: path.resolve(ctx.io.cwd, from),
      ...(dotFile ? { dotFile: path.resolve(ctx.io.cwd, dotFile) } : {}),
    }),
  );
  real?.setRunDir(run.runDir);
  return finish(run, options.interviewer, printer, (d) => d, flags, ctx, inspection, tui);
}
