import { createHash } from 'node:crypto';
import type { Diagnostic } from '../compiler/diagnostic.js';
import type { PipelineGraph } from '../compiler/ir.js';
import { findStartNodes } from '../compiler/validate/graph-index.js';
import { parseVarsDeclaration, resolvePipelineVars } from '../compiler/vars/pipeline-vars.js';
import {
  type CompiledMachine,
  type CompileMachineOptions,
  compileMachine,
} from '../machines/compile-machine.js';
import { DEFAULT_MAX_STEPS, pipelineInput } from '../machines/pipeline-input.js';
import { resumeInputFrom } from '../machines/resume-input-from.js';
import { definedFields } from '../shared/defined-fields.js';
import { AttractorError } from '../shared/errors.js';
import { type Checkpoint, readCheckpoint } from './checkpoint.js';
import { executeRun } from './execute-run.js';
import { locateRun } from './locate-run.js';
import { resolveRunDir } from './resolve-run-dir.js';
import { failedRunRestart, restartCheckpoint } from './restart-after-failure.js';
import { resolveRunConfig } from './run-config.js';
import { newRunId } from './run-directory.js';
import { runEnding } from './run-ending.js';
import { unstartedForkOrigin } from './run-manifest.js';
import { resolveRunServices } from './run-services.js';
import {
  type PipelineRun,
  type Prepared,
  partialNodesOf,
  type ResumeOptions,
  type RunOptions,
  type RunResult,
  type StartOptions,
} from './run-types.js';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** What compiling a pipeline for a run depends on: its source and the run's settings that change it. */
export type CompileRunOptions = Pick<
  RunOptions,
  'goal' | 'vars' | 'model' | 'provider' | 'readScope' | 'registry'
> & { source: string; file?: string };

/**
 * The pipeline compiled as a run of it will execute it (`--goal`, `--set`, default model, read scope,
 * custom handler types applied). Compile once and hand the result to `startPipeline({ compiled })`, the
 * run's services and a TUI: nothing parses the DOT source again.
 *
 * @example
 * const compiled = compileRun({ source, file: 'pipeline.dot', vars: { feature: 'login' } });
 * const run = startPipeline({ source, file: 'pipeline.dot', compiled, vars: { feature: 'login' } });
 */
export function compileRun(options: CompileRunOptions): CompiledMachine {
  return compileMachine(options.source, {
    ...(options.file ? { file: options.file } : {}),
    ...compileOptions(options),
    vars: options.vars ?? {},
  });
}

function compileOptions(options: Omit<CompileRunOptions, 'source'>): CompileMachineOptions {
  return {
    ...definedFields({ goal: options.goal }),
    // A registry of the caller's own may handle types it does not list (its default handler): a warning.
    ...(options.registry
      ? { customHandlerTypes: options.registry.types(), unknownTypes: 'warning' as const }
      : {}),
    ...(options.model ? { model: options.model } : {}),
    ...(options.provider ? { provider: options.provider } : {}),
    ...definedFields({ readScope: options.readScope }),
  };
}

/**
 * Start a pipeline run from DOT source. Returns at once; `result` settles when the run ends.
 *
 * @example
 * const run = startPipeline({ source, file: 'pipeline.dot', scenario });
 * const { status, quality } = await run.result;
 */
export function startPipeline(options: StartOptions): PipelineRun {
  const supplied = options.vars ?? {};
  const compiled = options.compiled ?? compileRun(options);
  const { graph } = compiled;
  if (!findStartNodes(graph)[0]) throw new AttractorError('NO_START_NODE', 'the pipeline has no start node.');
  const runId = options.runId ?? newRunId();
  const runDir = resolveRunDir(options, graph, runId);
  return executeRun(
    {
      compiled,
      warnings: [
        ...compiled.diagnostics.filter((d) => d.severity !== 'error'),
        ...scenarioWarnings(options, graph),
      ],
      source: options.source,
      sha: sha256(options.source),
      runId,
      runDir,
      input: pipelineInput(compiled, {
        runDir,
        maxSteps: options.maxSteps ?? DEFAULT_MAX_STEPS,
        values: varsContext(resolvePipelineVars(parseVarsDeclaration(graph.attrs.vars), supplied)),
      }),
      fresh: true,
    },
    resolveRunConfig(options, runDir),
    resolveRunServices(options),
  );
}

export async function runPipeline(options: StartOptions): Promise<RunResult> {
  return startPipeline(options).result;
}

/**
 * Resume a run from its checkpoint: completed nodes are not re-run, the interrupted node is; context and
 * retry counters are restored; the first `full`-fidelity node degrades once to `summary:high`. A run
 * that failed starts again at the node that failed, its retries renewed (`pipeline.resume` carries
 * `after_failure`); a completed run is not run again (`alreadyFinished`).
 */
export function resumePipeline(options: ResumeOptions): PipelineRun {
  const found = locateRun(options.from, options.dotFile);
  const checkpoint: Checkpoint = readCheckpoint(found.checkpointPath);
  const sha = sha256(found.source);
  if (checkpoint.source_sha256 !== sha) {
    throw new AttractorError(
      'CHECKPOINT_MISMATCH',
      `checkpoint ${found.checkpointPath} was written for a different pipeline than ${found.file} (the DOT source changed).`,
    );
  }
  const { runDir } = found;
  // The original run's parameter values, from its context (`vars.<name>`).
  const compiled =
    options.compiled ??
    compileRun({ ...options, source: found.source, file: found.file, vars: checkpointVars(checkpoint) });
  // A failed run starts again at the node that failed, as a retry of it; one that cannot (nothing
  // names a node to start from) is reported finished, like a completed run.
  const restart = failedRunRestart(checkpoint, compiled.graph);
  if (checkpoint.status === 'completed' || (checkpoint.status === 'failed' && !restart)) {
    const ending = finishedRunEnding(compiled.graph, checkpoint);
    const result: RunResult = {
      status: checkpoint.status,
      quality: ending.quality,
      recoveredNodes: ending.recoveredNodes,
      ...definedFields({ deadEnd: ending.deadEnd }),
      runId: checkpoint.run_id,
      runDir,
      stoppedAt: checkpoint.current_node,
      ...definedFields({ failure: checkpoint.failure }),
      context: checkpoint.context,
      completedNodes: checkpoint.completed_nodes,
      failedNodes: checkpoint.failed_nodes,
      partialNodes: partialNodesOf(checkpoint.node_outcomes),
      alreadyFinished: true,
    };
    return {
      runId: checkpoint.run_id,
      runDir,
      warnings: [],
      result: Promise.resolve(result),
      events: async function* () {}, // nothing ran
      pause() {},
      cancel() {},
    };
  }
  const from = restart ? restartCheckpoint(checkpoint, restart) : checkpoint;
  return executeRun(
    {
      compiled,
      warnings: compiled.diagnostics.filter((d) => d.severity !== 'error'),
      source: found.source,
      sha,
      runId: checkpoint.run_id,
      runDir,
      input: resumeInputFrom(from, { runDir, maxSteps: options.maxSteps ?? DEFAULT_MAX_STEPS }),
      fresh: false,
      ...definedFields({ afterFailure: restart }),
      ...withForkOrigin(runDir),
    },
    resolveRunConfig(options, runDir),
    resolveRunServices(options),
  );
}

function withForkOrigin(runDir: string): Pick<Prepared, 'forkedFrom' | 'forkedBy'> {
  const origin = unstartedForkOrigin(runDir);
  if (!origin) return {};
  return { forkedFrom: origin.from, ...definedFields({ forkedBy: origin.by }) };
}

/** How a finished run ended, from its checkpoint and the graph's shape (which nodes are exits). */
function finishedRunEnding(graph: PipelineGraph, checkpoint: Checkpoint) {
  return runEnding(graph, {
    status: checkpoint.status,
    stoppedAt: checkpoint.current_node,
    failedNodes: checkpoint.failed_nodes,
    nodeOutcomes: checkpoint.node_outcomes,
    completedNodes: checkpoint.completed_nodes,
  });
}

function varsContext(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [`vars.${name}`, value]));
}

/** The parameter values a run was started with, from its checkpoint's context (`vars.<name>`). */
export function checkpointVars(checkpoint: Pick<Checkpoint, 'context'>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(checkpoint.context))
    if (key.startsWith('vars.') && typeof value === 'string') values[key.slice('vars.'.length)] = value;
  return values;
}

/** A scenario naming a node the graph does not have is almost always a typo: say so before running. */
function scenarioWarnings(options: RunOptions, graph: PipelineGraph): Diagnostic[] {
  if (!options.scenario) return [];
  const ids = new Set(graph.nodes.map((n) => n.id));
  return options.scenario
    .scriptedNodeIds()
    .filter((id) => !ids.has(id))
    .map((id) => {
      const loc = options.scenario?.locationOf(id);
      return {
        rule: 'scenario_unknown_node',
        severity: 'warning' as const,
        message: `the scenario scripts node "${id}", which this pipeline does not have`,
        node_id: id,
        fix: `check the node id against: ${[...ids].slice(0, 12).join(', ')}${ids.size > 12 ? ', …' : ''}`,
        ...definedFields({ loc }),
      };
    });
}
