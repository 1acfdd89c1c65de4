import { setMaxListeners } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createActor } from 'xstate';
import { runsBuiltInRouting } from '../actors/handlers/built-in-routing.js';
import type { HandlerRegistry } from '../actors/registry.js';
import type { PipelineGraph } from '../compiler/ir.js';
import type { PipelineMachineContext } from '../machines/machine-context.js';
import type { MachineEmitted, RunStatus } from '../machines/machine-events.js';
import type { PipelineMachine } from '../machines/pipeline-machine.js';
import type { RunMachinery } from '../machines/pipeline-services.js';
import { sendWhileActive } from '../machines/send-while-active.js';
import { whenPipelineDone } from '../machines/watch-pipeline-actor.js';
import { ArtifactStore } from '../shared/artifact-store.js';
import { definedFields } from '../shared/defined-fields.js';
import { AttractorError } from '../shared/errors.js';
import type { EmitEvent } from '../shared/pipeline-event.js';
import { ProcessLedger } from '../shared/process/process-ledger.js';
import { stopLeftoverProcesses } from '../shared/process/stop-leftover-processes.js';
import { treeCarrier } from './carried-tree.js';
import type { CheckpointParts } from './checkpoint-delta.js';
import { FileRunRecorder } from './file-run-recorder.js';
import { LateFailure } from './late-failure.js';
import { lazyRunTree } from './lazy-run-tree.js';
import { MirroredRunRecorder } from './mirrored-run-recorder.js';
import { providePipeline } from './provide-pipeline.js';
import { refuseOverwrites } from './resolve-run-dir.js';
import type { RunConfig } from './run-config.js';
import { makeRunFolder } from './run-directory.js';
import { createRunEmitter } from './run-emitter.js';
import { acquireRunLock } from './run-lock.js';
import { manifestOf } from './run-manifest.js';
import type { RunRecorder } from './run-recorder.js';
import { runOutcome } from './run-result.js';
import type { RunServices } from './run-services.js';
import { createRunTreeService, type RunTreeService } from './run-tree-service.js';
import type { PipelineRun, Prepared, RunResult } from './run-types.js';
import { restoreStageRecords } from './stage-records.js';

/**
 * Run a prepared pipeline in its run directory: take the directory's lock, open its recorder, bind the
 * machine to the run's services, start the pipeline actor, and turn its end into a `RunResult`. The
 * config is resolved already (`resolveRunConfig`); the services go to the machine as they are.
 */
export function executeRun(prepared: Prepared, config: RunConfig, services: RunServices): PipelineRun {
  const { runDir } = prepared;
  if (prepared.fresh) makeRunFolder(runDir);
  // Before anything is written in the folder: a second run started there is refused untouched.
  // A lock left by a run that died starting: the first look at the folder left it to the lock.
  const leftLock = prepared.fresh && existsSync(join(runDir, 'run.lock'));
  const releaseLock = acquireRunLock(runDir, { fresh: prepared.fresh });
  let recorder: FileRunRecorder | undefined;
  try {
    // Now that the folder is ours, the look the lock stood in for.
    if (leftLock)
      refuseOverwrites(
        runDir,
        runDir,
        prepared.compiled.graph.nodes.map((n) => n.id),
        ['run.lock'],
      );
    const failure = new LateFailure();
    recorder = new FileRunRecorder({
      runDir,
      fresh: prepared.fresh,
      ...(prepared.fresh ? { source: prepared.source, manifest: manifestOf(prepared, config) } : {}),
      durable: config.durable,
      checkpointDir: config.checkpointDir,
      restarts: prepared.input.restarts ?? 0,
      onLateFailure: (error) => failure.report(error),
    });
    const kept = services.recordSink
      ? new MirroredRunRecorder(recorder, services.recordSink, runDir)
      : recorder;
    return launch({ prepared, config, services, recorder: kept, failure }, releaseLock);
  } catch (error) {
    // The run never started: it leaves no manifest (the folder can take a new run) and no lock.
    recorder?.abandon();
    releaseLock();
    throw error;
  }
}

/** What the parts of a starting run share. */
interface Run {
  prepared: Prepared;
  config: RunConfig;
  services: RunServices;
  recorder: RunRecorder;
  failure: LateFailure;
}

/** A started run's parts that its end settles. */
interface Started {
  tree: RunTreeService | undefined;
  delivered: () => Promise<void> | undefined;
  unwatch: () => void;
  releaseLock: () => void;
}

function launch(run: Run, releaseLock: () => void): PipelineRun {
  const { prepared, services, recorder, failure } = run;
  const { compiled, runDir, runId } = prepared;
  const artifacts = new ArtifactStore(runDir);
  const tracer = services.telemetry?.traceRun();
  const { emit, delivered } = createRunEmitter({
    recorder,
    failure,
    routingNodes: routingNodesOf(compiled.graph, services.registry),
    artifacts,
    accounting: services.accounting,
    onEvent: services.onEvent,
    tracer,
  });
  const hard = new AbortController();
  // Every running handler listens on it (detachably): twelve parallel branches are twelve listeners,
  // not a leak, and Node's warning at eleven would go to the user's terminal.
  setMaxListeners(0, hard.signal);
  const processes = ProcessLedger.forRunDir(runDir);
  let tree: RunTreeService | undefined;
  const machine = runMachine(run, () => tree, {
    artifacts,
    processes,
    emit,
    signal: hard.signal,
    ...(tracer ? { traceparent: (nodeId: string) => tracer.traceparent(nodeId) } : {}),
  });
  announce(prepared, run.config, services, emit);
  tree = openTree(run, emit);
  // The run lock is ours, so whoever ran this before is dead: stop what it left running before the
  // interrupted node runs again beside it.
  if (!prepared.fresh) cleanUpAfter(prepared, services.registry, processes, emit);
  const actor = createActor(machine, {
    input: prepared.input,
    ...definedFields({ inspect: services.inspect }),
  });
  actor.on('*', (e: MachineEmitted) => {
    if (e.type === 'pipeline.event') emit(e.kind, e.data, e.nodeId);
    else writeCheckpoint(run, emit, e.context, e.currentNode, e.status);
  });
  const done = whenPipelineDone(actor);
  const stopNow = (reason: AttractorError, event: Parameters<typeof actor.send>[0]): void => {
    hard.abort(reason);
    sendWhileActive(actor, event);
  };
  failure.onStop(() => stopNow(new AttractorError('CANCELLED', 'run stopped'), { type: 'CANCEL' }));
  const unwatch = watchBudget(services, stopNow);
  actor.start();
  const result = settle(run, ended(run, done, emit), {
    tree,
    delivered,
    unwatch: () => {
      unwatch();
      tracer?.end();
    },
    releaseLock,
  });
  return {
    runId,
    runDir,
    warnings: prepared.warnings,
    result,
    events: () => recorder.events(),
    pause: () => actor.send({ type: 'PAUSE' }),
    cancel: (by) =>
      stopNow(new AttractorError('CANCELLED', 'run cancelled'), {
        type: 'CANCEL',
        ...definedFields({ by }),
      }),
  };
}

/** Run by a built-in routing handler: such nodes do nothing a reader of checkpoint.json must see them doing. */
function routingNodesOf(graph: PipelineGraph, registry: HandlerRegistry | undefined): Set<string> {
  return new Set(graph.nodes.filter((n) => runsBuiltInRouting(registry, n.handler)).map((n) => n.id));
}

/**
 * The pipeline machine bound to the run: its services whole (one `provide()`), its settings as the
 * config resolved them, and the run's own machinery. `tree` is the run's tree once opened.
 */
function runMachine(
  run: Run,
  tree: () => RunTreeService | undefined,
  machinery: Pick<RunMachinery, 'artifacts' | 'processes' | 'emit' | 'signal' | 'traceparent'>,
): PipelineMachine {
  const { prepared, config, recorder } = run;
  const lazyTree = lazyRunTree(config.treeDir, prepared.runDir, prepared.runId);
  return providePipeline(prepared.compiled, {
    ...run.services,
    workingDir: config.workingDir,
    durable: config.durable,
    sandbox: config.sandbox,
    ...machinery,
    stages: recorder.stages,
    branchCheckpoints: recorder.branches,
    // The first node that does work starts once the run's tree is ready too (a resume's restored).
    recorded: () => {
      const ready = tree()?.ready;
      return ready ? Promise.all([recorder.recorded(), ready]).then(() => {}) : recorder.recorded();
    },
    ...(config.tree
      ? { snapshotTree: (nodeId: string) => tree()?.snapshot(nodeId) ?? Promise.resolve(undefined) }
      : {}),
    // A parallel node's isolated branches: the run's own tree when it keeps one, else one opened on demand.
    workingTree: async () => {
      const opened = tree();
      return opened ? opened.ready.then(() => opened.tree()) : lazyTree();
    },
  });
}

/** Before the run's first event its warnings, so a reader sees what it was warned about before it runs. */
function announce(prepared: Prepared, config: RunConfig, services: RunServices, emit: EmitEvent): void {
  if (prepared.warnings.length > 0) services.onWarnings?.(prepared.warnings);
  const { graph } = prepared.compiled;
  emit(prepared.fresh ? 'pipeline.start' : 'pipeline.resume', {
    name: graph.name,
    goal: graph.attrs.goal ?? '',
    run_id: prepared.runId,
    run_dir: prepared.runDir,
    ...(prepared.fresh ? {} : { resume_at: prepared.input.startAt }),
    ...definedFields({ after_failure: prepared.afterFailure, forked_from: prepared.forkedFrom }),
    ...identities(prepared, config),
  });
}

/** Who starts or resumes the run, and who made the fork it is (decision 0410). */
function identities(
  prepared: Prepared,
  config: RunConfig,
): { started_by?: string; resumed_by?: string; forked_by?: string } {
  const by = config.identity;
  return {
    ...(by === undefined ? {} : prepared.fresh ? { started_by: by } : { resumed_by: by }),
    ...definedFields({ forked_by: prepared.forkedBy }),
  };
}

/** The run's working tree, when it keeps one: opened (a resume's restored) while the run starts. */
function openTree(run: Run, emit: EmitEvent): RunTreeService | undefined {
  const { prepared, config } = run;
  if (!config.tree) return undefined;
  // How the run's snapshots travel (its record sink's bundles, or a git remote), when they do.
  const carrier = treeCarrier(prepared.runDir, run.services.recordSink, config.tree.remote);
  return createRunTreeService({
    workDir: config.treeDir,
    runDir: prepared.runDir,
    runId: prepared.runId,
    fresh: prepared.fresh,
    head: prepared.input.treeHead,
    resumeAt: prepared.input.startAt,
    settings: config.tree,
    emit,
    fail: (error) => run.failure.report(error),
    ...definedFields({ carrier }),
  });
}

/** A resume's stage records as its checkpoint has them, and the process groups its dead owner left running. */
function cleanUpAfter(
  prepared: Prepared,
  registry: HandlerRegistry | undefined,
  processes: ProcessLedger,
  emit: EmitEvent,
): void {
  restoreStageRecords(prepared.runDir, prepared.compiled.graph, registry, prepared.input);
  stopLeftoverProcesses(processes, {
    onStopped: ({ entry, pids, killed }) =>
      emit(
        'process.stopped',
        { pgid: entry.pgid, command: entry.command, processes: pids.length, killed },
        entry.node || undefined,
      ),
  });
}

function writeCheckpoint(
  run: Run,
  emit: EmitEvent,
  context: PipelineMachineContext,
  currentNode: string,
  status: RunStatus,
): void {
  const usage = run.services.accounting?.runTotals();
  const written = run.failure.guard('writing the checkpoint', () =>
    run.recorder.checkpoint(checkpointParts(run.prepared, context, currentNode, status, usage)),
  );
  if (written) emit('checkpoint.saved', { current_node: currentNode, status }, currentNode || undefined);
}

/** A spent budget stops the run at once, but paused: resuming with more budget is the normal next step. */
function watchBudget(
  services: RunServices,
  stopNow: (reason: AttractorError, event: { type: 'PAUSE_NOW'; reason: 'budget'; message: string }) => void,
): () => void {
  const budgetSignal = services.accounting?.budgetSignal;
  if (!budgetSignal) return () => {};
  const onBudget = (): void => {
    const reason = budgetSignal.reason;
    const message = reason instanceof Error ? reason.message : 'the run spent its cost budget';
    stopNow(new AttractorError('BUDGET_EXCEEDED', message), { type: 'PAUSE_NOW', reason: 'budget', message });
  };
  budgetSignal.addEventListener('abort', onBudget, { once: true });
  return () => budgetSignal.removeEventListener('abort', onBudget);
}

/** The run's result from how its actor ended (the first write that failed rejects it), and its `pipeline.finalize`. */
function ended(run: Run, done: ReturnType<typeof whenPipelineDone>, emit: EmitEvent): Promise<RunResult> {
  const { prepared, services, failure } = run;
  return done.then(({ status, context }) => {
    if (failure.error) throw failure.error;
    const ending = runOutcome(prepared.compiled.graph, status, context, {
      runId: prepared.runId,
      runDir: prepared.runDir,
      ...(services.accounting ? { usage: services.accounting.runTotals() } : {}),
    });
    emit('pipeline.finalize', ending.finalize);
    return ending.result;
  });
}

/** The run's result once its last snapshot is taken, every record is closed and heard, and the lock is free. */
function settle(run: Run, result: Promise<RunResult>, started: Started): Promise<RunResult> {
  return result.finally(async () => {
    started.unwatch();
    await started.tree?.idle();
    try {
      await run.recorder.close();
    } finally {
      await started.delivered();
      started.releaseLock();
    }
  });
}

/** The checkpoint the machine's context makes, with what the run adds: its ids, source and usage. */
function checkpointParts(
  prepared: Prepared,
  context: PipelineMachineContext,
  currentNode: string,
  status: RunStatus,
  usage: Record<string, unknown> | undefined,
): CheckpointParts {
  return {
    header: {
      timestamp: Date.now(),
      current_node: currentNode,
      completed_nodes: context.completedNodes,
      node_retries: context.nodeRetries,
      logs: context.logs,
      pipeline: prepared.compiled.graph.name,
      run_id: prepared.runId,
      run_dir: prepared.runDir,
      ...definedFields({ arrived_by: context.arrivedBy }),
      status,
      node_outcomes: context.nodeOutcomes,
      steps: context.steps,
      restarts: context.restarts,
      failed_nodes: context.failedNodes,
      ...(context.failure && status !== 'paused' ? { failure: context.failure } : {}),
      source_sha256: prepared.sha,
      ...definedFields({ usage }),
      ...(context.treeHead ? { tree_head: context.treeHead } : {}),
      ...definedFields({ tree_commits: context.treeCommits, tree_skipped: context.treeSkipped }),
    },
    values: context.values,
    visits: context.visits,
  };
}
