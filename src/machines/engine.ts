import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { InspectionEvent } from 'xstate';
import type { CodergenBackend } from '../actors/codergen-backend.js';
import type { HandlerServices } from '../actors/handler-types.js';
import { AutoApproveInterviewer } from '../actors/interviewers/auto-approve.js';
import type { Interviewer } from '../actors/interviewers/interviewer.js';
import { createDefaultRegistry, type HandlerRegistry } from '../actors/registry.js';
import { createSimulatedBackend } from '../actors/simulated-backend.js';
import { compile } from '../compiler/compile.js';
import type { Diagnostic } from '../compiler/diagnostic.js';
import type { PipelineGraph } from '../compiler/ir.js';
import type { MachineConfig } from '../compiler/lower/machine-config.js';
import { findStartNodes } from '../compiler/validate/graph-index.js';
import { ArtifactStore } from '../shared/artifact-store.js';
import { AttractorError } from '../shared/errors.js';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import { type Checkpoint, createCheckpointWriter, readCheckpoint } from './checkpoint.js';
import { openEventLog } from './event-log.js';
import type { MachineEmitted } from './machine-events.js';
import type { PipelineMachineContext, PipelineMachineInput } from './pipeline-context.js';
import { startExecution } from './pipeline-execution.js';
import { createGraphLookup } from './pipeline-runtime.js';
import { createRunDirectory, newRunId, runDirectoryFor } from './run-directory.js';
import { acquireRunLock } from './run-lock.js';
import type { Scenario } from './scenario.js';
import { createScenarioInterviewer } from './scenario-interviewer.js';
import { createServices } from './services.js';

export type RunQuality = 'clean' | 'degraded' | 'failed';

export interface RunResult {
  status: 'completed' | 'failed' | 'paused' | 'cancelled';
  quality: RunQuality;
  runId: string;
  runDir: string;
  /** Where the run stopped: the exit node, the failing node, or the node a resume runs next. */
  stoppedAt?: string;
  failure?: { node?: string; reason: string };
  context: Record<string, unknown>;
  completedNodes: string[];
  /** True when `resume` found the run already finished and did nothing. */
  alreadyFinished?: boolean;
}

export interface RunOptions {
  /** Overrides the graph goal (`--goal`). */
  goal?: string;
  /** Default model for codergen nodes that set none (`--model`); provider likewise. */
  model?: string;
  provider?: string;
  /** Root of run directories (default `.attractor-runs`); a run lands in `<root>/<graph>/<run id>/`. */
  logsDir?: string;
  /** `--checkpoint-dir`: keep a timestamped checkpoint history there too. */
  checkpointDir?: string;
  maxSteps?: number;
  scenario?: Scenario;
  interviewer?: Interviewer;
  backend?: CodergenBackend;
  registry?: HandlerRegistry;
  llmRank?: HandlerServices['llmRank'];
  onEvent?: (event: PipelineEvent) => void;
  inspect?: (event: InspectionEvent) => void;
  /** Recorded in `manifest.json` under `options` (the CLI keeps `dry_run` and `scenario` there for resume). */
  manifestOptions?: Record<string, unknown>;
  /** Where tool commands run (default: the process's working directory). */
  workingDir?: string;
  /** fsync checkpoints (default true). */
  durable?: boolean;
  random?: () => number;
}

export interface StartOptions extends RunOptions {
  /** DOT source; `file` is its path (locations, `@file` prompts, child dotfiles). */
  source: string;
  file?: string;
}

/** A run in progress: pause (finish the node, checkpoint, stop) or cancel (abort now). */
export interface PipelineRun {
  runId: string;
  runDir: string;
  /** Lint warnings of the pipeline that runs (errors stop it before it starts). */
  warnings: Diagnostic[];
  result: Promise<RunResult>;
  pause(): void;
  cancel(): void;
}

export const DEFAULT_MAX_STEPS = 1000;

interface Prepared {
  graph: PipelineGraph;
  config: MachineConfig;
  source: string;
  sha: string;
  runId: string;
  runDir: string;
  input: PipelineMachineInput;
  fresh: boolean;
  warnings: Diagnostic[];
}

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
  const compiled = compile(options.source, {
    ...(options.file ? { file: options.file } : {}),
    ...(options.goal !== undefined ? { goal: options.goal } : {}),
    ...(options.registry ? { customHandlerTypes: options.registry.types() } : {}),
  });
  const graph = applyModelDefaults(compiled.graph, options);
  const start = findStartNodes(graph)[0];
  if (!start) throw new AttractorError('NO_START_NODE', 'the pipeline has no start node.');
  const runId = newRunId();
  const runDir = runDirectoryFor(options.logsDir ?? '.attractor-runs', graph.name, runId);
  const goal = graph.attrs.goal ?? '';
  const values: Record<string, unknown> = {
    'pipeline.name': graph.name,
    'pipeline.goal': goal,
    'graph.goal': goal,
    ...(goal ? { goal } : {}),
  };
  return execute(
    {
      graph,
      config: compiled.config,
      warnings: compiled.diagnostics.filter((d) => d.severity !== 'error'),
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

export interface ResumeOptions extends RunOptions {
  /** A run directory, or a checkpoint file. */
  from: string;
  /** The DOT file, when the run directory's copy should not be used (it must be the same pipeline). */
  dotFile?: string;
}

/** Locate the checkpoint, its run directory and the DOT source for a resume. */
function locate(
  from: string,
  dotFile?: string,
): { checkpointPath: string; runDir: string; source: string; file: string } {
  const path = resolve(from);
  if (!existsSync(path))
    throw new AttractorError('RESUME_NOT_FOUND', `nothing to resume at ${from}: no such file or directory.`);
  const isDir = statSync(path).isDirectory();
  const checkpointPath = isDir ? join(path, 'checkpoint.json') : path;
  if (!existsSync(checkpointPath)) {
    throw new AttractorError('RESUME_NOT_FOUND', `${from} has no checkpoint.json: is it a run directory?`);
  }
  // A timestamped copy from --checkpoint-dir names its run directory; checkpoint.json lives in it.
  const recorded = isDir || basename(path) === 'checkpoint.json' ? undefined : readCheckpoint(path).run_dir;
  const runDir = isDir ? path : recorded && existsSync(recorded) ? recorded : dirname(path);
  const file = dotFile ? resolve(dotFile) : join(runDir, 'pipeline.dot');
  if (!existsSync(file)) {
    throw new AttractorError(
      'RESUME_NO_PIPELINE',
      `cannot find the pipeline for ${basename(checkpointPath)}: ${file} is missing; pass the DOT file with --pipeline-dot.`,
    );
  }
  return { checkpointPath, runDir, source: readFileSync(file, 'utf8'), file };
}

/**
 * Resume a run from its checkpoint: completed nodes are not re-run, the interrupted node is; context and
 * retry counters are restored; the first `full`-fidelity node degrades once to `summary:high`.
 */
export function resumePipeline(options: ResumeOptions): PipelineRun {
  const found = locate(options.from, options.dotFile);
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
      quality: quality(checkpoint.status, checkpoint.failed_nodes),
      runId: checkpoint.run_id,
      runDir,
      stoppedAt: checkpoint.current_node,
      ...(checkpoint.failure ? { failure: checkpoint.failure } : {}),
      context: checkpoint.context,
      completedNodes: checkpoint.completed_nodes,
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
    ...(options.goal !== undefined ? { goal: options.goal } : {}),
    ...(options.registry ? { customHandlerTypes: options.registry.types() } : {}),
  });
  const graph = applyModelDefaults(compiled.graph, options);
  return execute(
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

function quality(status: string, failedNodes: readonly string[]): RunQuality {
  if (status !== 'completed') return 'failed';
  return failedNodes.length > 0 ? 'degraded' : 'clean';
}

function execute(prepared: Prepared, options: RunOptions): PipelineRun {
  const { graph, runDir, runId } = prepared;
  if (prepared.fresh) {
    createRunDirectory(runDir, prepared.source, {
      run_id: runId,
      pipeline: graph.name,
      goal: graph.attrs.goal ?? '',
      ...(graph.file ? { source_file: graph.file } : {}),
      source_sha256: prepared.sha,
      started_at: new Date().toISOString(),
      attractor_version: '0.1.0',
      options: {
        max_steps: prepared.input.maxSteps,
        ...(options.model ? { model: options.model } : {}),
        ...(options.provider ? { provider: options.provider } : {}),
        ...options.manifestOptions,
      },
    });
  }
  // A listener that throws (a checkpoint that cannot be written, an onEvent callback whose stdout is
  // gone) must not surface as an uncaught exception from inside XState while the run goes on without
  // its record: the first such failure stops the run, and `result` rejects with it.
  let outputFailure: AttractorError | undefined;
  let stopRun: (() => void) | undefined;
  const failOutput = (what: string, error: unknown): void => {
    if (outputFailure) return;
    const detail = error instanceof Error ? error.message : String(error);
    outputFailure = new AttractorError(
      'RUN_OUTPUT_FAILED',
      `${what} failed: ${detail}; the run was stopped.`,
      {
        cause: error,
      },
    );
    // Not from inside the listener: the actor is in the middle of a transition.
    queueMicrotask(() => stopRun?.());
  };
  const releaseLock = acquireRunLock(runDir);
  const log = openEventLog(join(runDir, 'events.jsonl'), (error) =>
    failOutput(`writing ${join(runDir, 'events.jsonl')}`, error),
  );
  // Durations are measured here, at the edge, so the machine's actions stay free of clocks.
  const runStarted = Date.now();
  const nodeStarted = new Map<string, number>();
  const emitEvent = (kind: string, data: Record<string, unknown> = {}, nodeId?: string): void => {
    const now = Date.now();
    let timed = data;
    if (nodeId && !data['branch'] && !data['parent']) {
      if (kind === 'node.start') nodeStarted.set(nodeId, now);
      else if (kind === 'node.complete') {
        const began = nodeStarted.get(nodeId);
        nodeStarted.delete(nodeId);
        if (began !== undefined) timed = { ...data, duration_ms: now - began };
      }
    }
    if (kind === 'pipeline.finalize') timed = { ...data, duration_ms: now - runStarted };
    const event: PipelineEvent = {
      kind,
      ...(nodeId ? { node_id: nodeId } : {}),
      data: timed,
      timestamp: new Date(now).toISOString(),
    };
    try {
      log.append(event);
    } catch (error) {
      failOutput(`writing ${join(runDir, 'events.jsonl')}`, error);
    }
    try {
      options.onEvent?.(event);
    } catch (error) {
      failOutput('the onEvent callback', error);
    }
  };
  const checkpoints = createCheckpointWriter({
    runDir,
    ...(options.checkpointDir ? { historyDir: options.checkpointDir } : {}),
    ...(options.durable !== undefined ? { durable: options.durable } : {}),
  });
  const writeCheckpoint = (
    context: PipelineMachineContext,
    currentNode: string,
    status: Checkpoint['status'],
  ) => {
    try {
      log.flush();
    } catch (error) {
      failOutput(`writing ${join(runDir, 'events.jsonl')}`, error);
    }
    try {
      checkpoints.write({
        timestamp: Date.now(),
        current_node: currentNode,
        completed_nodes: context.completedNodes,
        node_retries: context.nodeRetries,
        context: context.values,
        logs: [],
        pipeline: graph.name,
        run_id: runId,
        run_dir: runDir,
        ...(context.arrivedBy !== undefined ? { arrived_by: context.arrivedBy } : {}),
        status,
        node_outcomes: context.nodeOutcomes,
        steps: context.steps,
        restarts: context.restarts,
        failed_nodes: context.failedNodes,
        ...(context.failure ? { failure: context.failure } : {}),
        source_sha256: prepared.sha,
      });
    } catch (error) {
      failOutput(`writing the checkpoint ${checkpoints.path}`, error);
      return;
    }
    emitEvent('checkpoint.saved', { current_node: currentNode, status });
  };

  const hard = new AbortController();
  const fallbackInterviewer = options.interviewer ?? new AutoApproveInterviewer();
  const interviewer = options.scenario
    ? createScenarioInterviewer(options.scenario, fallbackInterviewer)
    : fallbackInterviewer;
  const lookup = createGraphLookup(graph);
  const registry = options.registry ?? createDefaultRegistry();
  const { config } = prepared;
  const services = createServices({
    artifacts: new ArtifactStore(runDir),
    graph,
    config,
    lookup,
    runDir,
    registry,
    interviewer,
    backend: options.backend ?? createSimulatedBackend(),
    ...(options.scenario ? { scenario: options.scenario } : {}),
    hardAbort: hard.signal,
    maxSteps: prepared.input.maxSteps,
    ...(options.workingDir ? { workingDir: options.workingDir } : {}),
    ...(options.llmRank ? { llmRank: options.llmRank } : {}),
    emit: emitEvent,
  });

  emitEvent(prepared.fresh ? 'pipeline.start' : 'pipeline.resume', {
    name: graph.name,
    goal: graph.attrs.goal ?? '',
    run_id: runId,
    ...(prepared.fresh ? {} : { resume_at: prepared.input.startAt }),
  });
  const onEmitted = (e: MachineEmitted) => {
    if (e.type === 'pipeline.event') emitEvent(e.kind, e.data, e.nodeId);
    else writeCheckpoint(e.context, e.currentNode, e.status);
  };
  const execution = startExecution({
    graph,
    config,
    lookup,
    runDir,
    registry,
    services,
    input: prepared.input,
    hardAbort: hard.signal,
    onEmitted,
    ...(options.workingDir ? { workingDir: options.workingDir } : {}),
    ...(options.scenario ? { scenario: options.scenario } : {}),
    ...(options.inspect ? { inspect: options.inspect } : {}),
    ...(options.random ? { random: options.random } : {}),
  });

  stopRun = () => {
    hard.abort(new AttractorError('CANCELLED', 'run stopped'));
    execution.cancel();
  };

  const result = execution.done
    .then(({ status, context }): RunResult => {
      if (outputFailure) throw outputFailure;
      const final = status === 'branch_done' ? 'completed' : status;
      const q = quality(final, context.failedNodes);
      emitEvent('pipeline.finalize', {
        status: final,
        quality: q,
        ...(context.failure ? { reason: context.failure.reason } : {}),
      });
      return {
        status: final,
        quality: q,
        runId,
        runDir,
        ...(context.stoppedAt ? { stoppedAt: context.stoppedAt } : {}),
        ...(context.failure ? { failure: context.failure } : {}),
        context: context.values,
        completedNodes: context.completedNodes,
      };
    })
    .finally(() => {
      log.close();
      releaseLock();
    });

  return {
    runId,
    runDir,
    warnings: prepared.warnings,
    result,
    pause: () => execution.pause(),
    cancel: () => {
      hard.abort(new AttractorError('CANCELLED', 'run cancelled'));
      execution.cancel();
    },
  };
}
