import { existsSync } from 'node:fs';
import path from 'node:path';
import type { PreparedAgents } from '../actors/acp/prepare-agent-backend.js';
import type { RealRunSettings } from '../actors/codergen/real-run-services.js';
import type { Interviewer } from '../actors/interviewers/interviewer.js';
import { loadScenario } from '../actors/simulated/scenario.js';
import { createSimulatedBackend } from '../actors/simulated/simulated-backend.js';
import type { ReadScope } from '../compiler/files/read-scope.js';
import type { PipelineGraph } from '../compiler/ir.js';
import type { CompiledMachine } from '../machines/compile-machine.js';
import { DEFAULT_RUNS_ROOT } from '../run/resolve-run-dir.js';
import type { RunSettings } from '../run/run-config.js';
import { createRunServices, type RunServices } from '../run/run-services.js';
import { definedFields } from '../shared/defined-fields.js';
import { AttractorError } from '../shared/errors.js';
import { localIdentity } from '../shared/identity.js';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import type { CliContext } from './cli-context.js';
import { cliSandbox } from './cli-sandbox.js';
import { cliTelemetry } from './cli-telemetry.js';
import type { RunFlags } from './run-flags.js';
import {
  type AnsweringInterviewer,
  createAnsweringInterviewer,
  createNonInteractiveInterviewer,
} from './terminal-interviewer.js';

/** Without the TUI, a gate asks on stderr/stdin and in the run directory's answer channel (decision 0024). */
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
      interviewer.setRunDir(event.data.run_dir);
    }
    onEvent(event);
  };
}

/** `--model` / `--provider` on a run that simulates every model call: accepted, said once. */
function noteSimulatedModels(flags: RunFlags, ctx: CliContext): void {
  if (!(flags.dryRun || flags.scenario !== undefined) || !(flags.model || flags.provider)) return;
  const which = [flags.model ? '--model' : '', flags.provider ? '--provider' : '']
    .filter(Boolean)
    .join(' and ');
  ctx.io.stderr(
    `attractor: ${which} ${flags.model && flags.provider ? 'apply' : 'applies'} to real runs; this ${flags.dryRun ? 'dry run' : 'scenario run'} simulates every model call.\n`,
  );
}

/** A real run's settings from the flags: where agents work, the keys' environment, defaults, budget, cassettes. */
function realSettings(
  flags: RunFlags,
  ctx: CliContext,
  initialUsage: unknown,
  showPlan: boolean,
): RealRunSettings {
  if (flags.record && flags.replay) {
    throw new AttractorError('BAD_FLAG', '--record and --replay cannot be used together.');
  }
  const workingDir = path.resolve(ctx.io.cwd, flags.workdir ?? '.');
  if (!existsSync(workingDir)) {
    throw new AttractorError('BAD_FLAG', `--workdir ${flags.workdir}: no such directory.`);
  }
  return {
    workingDir,
    env: ctx.io.env,
    // The person's own folder: its .env may hold their keys (never on serve or worker, decision 0005).
    readDotEnv: true,
    ...(flags.model ? { model: flags.model } : {}),
    ...(flags.provider ? { provider: flags.provider } : {}),
    ...definedFields({ maxCostUsd: flags.maxCost }),
    ...(flags.allowUnpriced ? { allowUnpriced: true } : {}),
    ...(flags.record ? { recordTo: path.resolve(ctx.io.cwd, flags.record) } : {}),
    ...(flags.replay ? { replayFrom: path.resolve(ctx.io.cwd, flags.replay) } : {}),
    ...definedFields({ initialUsage }),
    // Which model each node will use, before the first call costs anything (the TUI shows its own).
    onPlan: (lines) => {
      if (showPlan || ctx.verbose()) for (const line of lines) ctx.io.stderr(`attractor: ${line}\n`);
    },
  };
}

/** Nodes with `agent` run through external ACP agents: checked (binaries on PATH) before the run starts. */
async function prepareAgents(
  graph: PipelineGraph,
  flags: RunFlags,
  ctx: CliContext,
): Promise<PreparedAgents | undefined> {
  if (flags.dryRun) return undefined;
  const { prepareAgentBackend } = await import('../actors/acp/prepare-agent-backend.js');
  return prepareAgentBackend({
    graph,
    workingDir: ctx.io.cwd,
    env: ctx.io.env,
    autoApprove: flags.autoApprove === true,
    fallback: createSimulatedBackend(),
  });
}

/** Where a run that calls no model works: `--workdir`, else the current directory. */
function workingDirOf(flags: RunFlags, ctx: CliContext): string {
  return flags.workdir ? path.resolve(ctx.io.cwd, flags.workdir) : ctx.io.cwd;
}

/** What the flags say the pipeline is for (goal, parameters, default model, read scope): compiled and run with. */
export function pipelineSettings(
  flags: RunFlags,
  readScope: ReadScope,
): Pick<RunSettings, 'goal' | 'vars' | 'model' | 'provider' | 'readScope'> {
  return {
    readScope,
    ...definedFields({ goal: flags.goal, vars: flags.set }),
    ...(flags.model ? { model: flags.model } : {}),
    ...(flags.provider ? { provider: flags.provider } : {}),
  };
}

/** Snapshots of the working tree, for every run that executes tools (a dry run changes no file). */
function treeSettings(flags: RunFlags, ctx: CliContext): Pick<RunSettings, 'tree'> {
  if (flags.dryRun || flags.snapshots === false) return {};
  const runDir = flags.logsDir ?? flags.logDir;
  const limits = {
    ...(flags.snapshotMaxFile ? { maxFileBytes: flags.snapshotMaxFile } : {}),
    ...(flags.snapshotBudget ? { budgetBytes: flags.snapshotBudget } : {}),
  };
  return {
    tree: {
      // Other runs' records under the folder are not the run's files.
      exclude: [path.resolve(ctx.io.cwd, runDir ?? DEFAULT_RUNS_ROOT)],
      ...(Object.keys(limits).length > 0 ? { limits } : {}),
      ...(flags.restoreTree ? { restore: true } : {}),
    },
  };
}

async function withTelemetry(flags: RunFlags, ctx: CliContext): Promise<Pick<RunServices, 'telemetry'>> {
  const telemetry = await cliTelemetry(flags, ctx);
  return telemetry ? { telemetry } : {};
}

/**
 * What `run` and `resume` build from the flags around the one compiled pipeline: the run's services
 * (`createRunServices`, as the server and embedders build them) and its settings.
 */
export async function buildRun(
  compiled: CompiledMachine,
  flags: RunFlags,
  ctx: CliContext,
  onEvent: (e: PipelineEvent) => void,
  options: { interviewer?: Interviewer; initialUsage?: unknown; readScope: ReadScope },
) {
  noteSimulatedModels(flags, ctx);
  const agents = await prepareAgents(compiled.graph, flags, ctx);
  const interviewer = chooseInterviewer(flags);
  const scenario = flags.scenario
    ? loadScenario(path.resolve(ctx.io.cwd, flags.scenario), flags.scenario)
    : undefined;
  const services = createRunServices({
    graph: compiled.graph,
    ...(flags.dryRun ? { dryRun: true } : {}),
    ...definedFields({ scenario }),
    // A dry run on the command line answers every gate with its first option, as --auto-approve does.
    ...(flags.autoApprove || flags.dryRun ? { autoApprove: true } : {}),
    interviewer: options.interviewer ?? interviewer,
    ...(flags.dryRun || scenario
      ? {}
      : {
          real: {
            settings: realSettings(flags, ctx, options.initialUsage, options.interviewer === undefined),
            // Loaded only here: a dry or scenario run never loads the LLM client and the coding agent.
            createRealRunServices: (await import('../actors/codergen/real-run-services.js'))
              .createRealRunServices,
          },
        }),
    ...definedFields({ agents }),
  });
  const { real, ...runServices } = services;
  const runDir = flags.logsDir ?? flags.logDir;
  const settings: RunSettings = {
    ...pipelineSettings(flags, options.readScope),
    ...(runDir !== undefined
      ? { runDir: path.resolve(ctx.io.cwd, runDir) }
      : { runsRoot: path.resolve(ctx.io.cwd, DEFAULT_RUNS_ROOT) }),
    ...(flags.checkpointDir ? { checkpointDir: path.resolve(ctx.io.cwd, flags.checkpointDir) } : {}),
    ...(flags.maxSteps ? { maxSteps: flags.maxSteps } : {}),
    // Nothing runs in a dry run: no sandbox to look for, and nothing to warn about.
    sandbox: flags.dryRun ? { mode: 'off' } : cliSandbox(flags.sandbox, ctx.io.stderr),
    manifestOptions: {
      dry_run: flags.dryRun === true,
      ...(flags.scenario ? { scenario: path.resolve(ctx.io.cwd, flags.scenario) } : {}),
      // A resume works where the run worked (its snapshots are of that folder), and a replayed run keeps replaying.
      ...(real ? { workdir: real.workingDir } : flags.dryRun ? {} : { workdir: workingDirOf(flags, ctx) }),
      ...(real && flags.replay ? { replay: path.resolve(ctx.io.cwd, flags.replay) } : {}),
    },
    workingDir: real?.workingDir ?? workingDirOf(flags, ctx),
    // Who starts (or resumes) it: the person at this terminal (decision 0410).
    identity: localIdentity(),
    ...treeSettings(flags, ctx),
  };
  return {
    options: {
      ...settings,
      ...runServices,
      onEvent: learningRunDir(interviewer, onEvent),
      ...(await withTelemetry(flags, ctx)),
    },
    real,
    interviewer,
  };
}
