import { createHash } from 'node:crypto';
import { compile } from '../compiler/compile.js';
import type { Diagnostic } from '../compiler/diagnostic.js';
import type { PipelineGraph } from '../compiler/ir.js';
import { findStartNodes } from '../compiler/validate/graph-index.js';
import { parseVarsDeclaration, resolvePipelineVars } from '../compiler/vars/pipeline-vars.js';
import { AttractorError } from '../shared/errors.js';
import { type Checkpoint, readCheckpoint } from './checkpoint.js';
import { executeRun } from './execute-run.js';
import { locateRun } from './locate-run.js';
import { resolveRunDir } from './resolve-run-dir.js';
import { newRunId } from './run-directory.js';
import {
  DEFAULT_MAX_STEPS,
  type PipelineRun,
  partialNodesOf,
  type ResumeOptions,
  type RunOptions,
  type RunResult,
  runQuality,
  type StartOptions,
} from './run-types.js';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

function applyModelDefaults(graph: PipelineGraph, options: RunOptions): PipelineGraph {
  if (!options.model && !options.provider) return graph;
  return {
    ...graph,
    nodes: graph.nodes.map((n) =>
      n.handler !== 'codergen'
        ? n
        : {
            ...n,
            attrs: {
              ...n.attrs,
              ...(options.model && !n.attrs.llm_model ? { llm_model: options.model } : {}),
              ...(options.provider && !n.attrs.llm_provider ? { llm_provider: options.provider } : {}),
            },
          },
    ),
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
  const compiled = compile(options.source, {
    ...(options.file ? { file: options.file } : {}),
    ...(options.goal !== undefined ? { goal: options.goal } : {}),
    vars: supplied,
    ...(options.registry ? { customHandlerTypes: options.registry.types() } : {}),
  });
  const graph = applyModelDefaults(compiled.graph, options);
  const start = findStartNodes(graph)[0];
  if (!start) throw new AttractorError('NO_START_NODE', 'the pipeline has no start node.');
  const runId = newRunId();
  const runDir = resolveRunDir(options, graph.name, runId);
  const goal = graph.attrs.goal ?? '';
  const values: Record<string, unknown> = {
    'pipeline.name': graph.name,
    'pipeline.goal': goal,
    'graph.goal': goal,
    ...(goal ? { goal } : {}),
    ...varsContext(resolvePipelineVars(parseVarsDeclaration(graph.attrs.vars), supplied)),
  };
  return executeRun(
    {
      graph,
      config: compiled.config,
      warnings: [
        ...compiled.diagnostics.filter((d) => d.severity !== 'error'),
        ...scenarioWarnings(options, graph),
      ],
      source: options.source,
      sha: sha256(options.source),
      runId,
      runDir,
      input: { startAt: start.id, values, maxSteps: options.maxSteps ?? DEFAULT_MAX_STEPS },
      fresh: true,
    },
    options,
  );
}

export async function runPipeline(options: StartOptions): Promise<RunResult> {
  return startPipeline(options).result;
}

/**
 * Resume a run from its checkpoint: completed nodes are not re-run, the interrupted node is; context and
 * retry counters are restored; the first `full`-fidelity node degrades once to `summary:high`.
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
  if (checkpoint.status === 'completed' || checkpoint.status === 'failed') {
    const result: RunResult = {
      status: checkpoint.status,
      quality: runQuality(checkpoint.status, checkpoint.failed_nodes),
      runId: checkpoint.run_id,
      runDir,
      stoppedAt: checkpoint.current_node,
      ...(checkpoint.failure ? { failure: checkpoint.failure } : {}),
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
      pause() {},
      cancel() {},
    };
  }
  const compiled = compile(found.source, {
    file: found.file,
    // The original run's parameter values, from its context (`vars.<name>`).
    vars: varsFromContext(checkpoint.context),
    ...(options.goal !== undefined ? { goal: options.goal } : {}),
    ...(options.registry ? { customHandlerTypes: options.registry.types() } : {}),
  });
  const graph = applyModelDefaults(compiled.graph, options);
  return executeRun(
    {
      graph,
      config: compiled.config,
      warnings: compiled.diagnostics.filter((d) => d.severity !== 'error'),
      source: found.source,
      sha,
      runId: checkpoint.run_id,
      runDir,
      input: {
        startAt: checkpoint.current_node,
        values: checkpoint.context,
        maxSteps: options.maxSteps ?? DEFAULT_MAX_STEPS,
        completedNodes: checkpoint.completed_nodes,
        nodeOutcomes: checkpoint.node_outcomes,
        nodeRetries: checkpoint.node_retries,
        steps: checkpoint.steps,
        restarts: checkpoint.restarts,
        failedNodes: checkpoint.failed_nodes,
        ...(checkpoint.arrived_by !== undefined ? { arrivedBy: checkpoint.arrived_by } : {}),
        resumed: true,
      },
      fresh: false,
    },
    options,
  );
}

function varsContext(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [`vars.${name}`, value]));
}

function varsFromContext(context: Record<string, unknown>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(context))
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
    .map((id) => ({
      rule: 'scenario_unknown_node',
      severity: 'warning' as const,
      message: `the scenario scripts node "${id}", which this pipeline does not have`,
      node_id: id,
      fix: `check the node id against: ${[...ids].slice(0, 12).join(', ')}${ids.size > 12 ? ', …' : ''}`,
    }));
}
