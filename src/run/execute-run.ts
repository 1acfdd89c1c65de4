import { setMaxListeners } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createActor } from 'xstate';
import { runsBuiltInRouting } from '../actors/handlers/built-in-routing.js';
import { createScenarioInterviewer } from '../actors/simulated/scenario-interviewer.js';
import type { PipelineMachineContext } from '../machines/machine-context.js';
import type { MachineEmitted, RunStatus } from '../machines/machine-events.js';
import { missingInterviewer, type PipelineServices } from '../machines/pipeline-services.js';
import { sendWhileActive } from '../machines/send-while-active.js';
import { whenPipelineDone } from '../machines/watch-pipeline-actor.js';
import { ArtifactStore } from '../shared/artifact-store.js';
import { AttractorError } from '../shared/errors.js';
import type { EmitEvent, EventKind, PipelineEvent } from '../shared/pipeline-event.js';
import { ProcessLedger } from '../shared/process/process-ledger.js';
import { stopLeftoverProcesses } from '../shared/process/stop-leftover-processes.js';
import { sandboxOrDefault, sandboxSettingsForRun } from '../shared/sandbox/sandbox-settings.js';
import type { RunTracer } from '../telemetry/run-tracer.js';
import { type TreeCarrier, treeCarrier } from './carried-tree.js';
import type { CheckpointParts } from './checkpoint-delta.js';
import { enrichEvent } from './enrich-event.js';
import { FileRunRecorder } from './file-run-recorder.js';
import { lazyRunTree } from './lazy-run-tree.js';
import { MirroredRunRecorder } from './mirrored-run-recorder.js';
import { providePipeline } from './provide-pipeline.js';
import { refuseOverwrites } from './resolve-run-dir.js';
import { makeRunFolder } from './run-directory.js';
import { acquireRunLock } from './run-lock.js';
import { manifestOf } from './run-manifest.js';
import { type RunRecorder, recording } from './run-recorder.js';
import { runOutcome } from './run-result.js';
import { createRunTreeService, type RunTreeService } from './run-tree-service.js';
import type { PipelineRun, Prepared, RunOptions } from './run-types.js';
import { restoreStageRecords } from './stage-records.js';

/** The events that say the run is over (or stopped): every node's record is on disk when they are heard. */
const TERMINAL_EVENTS = new Set<EventKind>([
  'pipeline.complete',
  'pipeline.error',
  'pipeline.paused',
  'pipeline.cancelled',
]);

/**
 * Run a prepared pipeline in its run directory: take the directory's lock, open its recorder, bind the
 * machine to the run's services, start the pipeline actor, and turn its end into a `RunResult`.
 */
export function executeRun(prepared: Prepared, options: RunOptions): PipelineRun {
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
    const late = new LateFailure();
    recorder = new FileRunRecorder({
      runDir,
      fresh: prepared.fresh,
      ...(prepared.fresh ? { source: prepared.source, manifest: manifestOf(prepared, options) } : {}),
      ...(options.durable !== undefined ? { durable: options.durable } : {}),
      ...(options.checkpointDir ? { checkpointDir: options.checkpointDir } : {}),
      restarts: prepared.input.restarts ?? 0,
      onLateFailure: (error) => late.report(error),
    });
    const kept = options.recordSink
      ? new MirroredRunRecorder(recorder, options.recordSink, runDir)
      : recorder;
    return launch(prepared, options, kept, late, releaseLock);
  } catch (error) {
    // The run never started: it leaves no manifest (the folder can take a new run) and no lock.
    recorder?.abandon();
    releaseLock();
    throw error;
  }
}

/** The first write the run could not make: it stops the run, and `result` rejects with it. */
class LateFailure {
  error: AttractorError | undefined;
  #stop: (() => void) | undefined;

  report(error: unknown): void {
    if (this.error) return;
    const what = error instanceof AttractorError ? error.message.replace(/\.$/, '') : String(error);
    this.error = new AttractorError('RUN_OUTPUT_FAILED', `${what}; the run was stopped.`, { cause: error });
    // Not from inside a listener: the actor may be in the middle of a transition.
    queueMicrotask(() => this.#stop?.());
  }

  onStop(stop: () => void): void {
    this.#stop = stop;
  }
}

function launch(
  prepared: Prepared,
  options: RunOptions,
  recorder: RunRecorder,
  failure: LateFailure,
  releaseLock: () => void,
): PipelineRun {
  const { compiled, runDir, runId } = prepared;
  const { graph } = compiled;
  const accounting = options.accounting;
  const artifacts = new ArtifactStore(runDir);
  // Run by a built-in routing handler: such nodes do nothing a reader of checkpoint.json must see them doing.
  const routingNodes = new Set(
    graph.nodes.filter((n) => runsBuiltInRouting(options.registry, n.handler)).map((n) => n.id),
  );
  const runStartedAt = Date.now();
  const tracer = options.telemetry?.traceRun();
  const nodeStartedAt = new Map<string, number>();
  // A listener that throws must not surface as an uncaught exception from inside XState while the run
  // goes on without its record: the first failure stops the run.
  const guarded = (what: string, write: () => void): boolean => {
    try {
      recording(what, write);
      return true;
    } catch (error) {
      failure.report(error);
      return false;
    }
  };

  let delivering: Promise<void> | undefined;
  const emitEvent: EmitEvent = (kind, data, nodeId) => {
    const tags: { branch?: string; parent?: string } = data;
    const ours = !tags.branch && !tags.parent;
    // A node that does work starts with checkpoint.json naming it (docs/decisions/0055-checkpoint-journal.md).
    if (kind === 'node.start' && ours && nodeId && !routingNodes.has(nodeId))
      guarded('writing the checkpoint', () => recorder.beforeWork());
    if (TERMINAL_EVENTS.has(kind) && ours) guarded('writing the stage folders', () => recorder.beforeEnd());
    const now = Date.now();
    let started: number | undefined;
    if (nodeId && ours) {
      if (kind === 'node.start') nodeStartedAt.set(nodeId, now);
      else if (kind === 'node.complete') {
        started = nodeStartedAt.get(nodeId);
        nodeStartedAt.delete(nodeId);
      }
    }
    const event = enrichEvent(kind, data, nodeId, {
      now,
      runStartedAt,
      ...(started !== undefined ? { nodeStartedAt: started } : {}),
      ...(accounting && nodeId
        ? { nodeUsage: () => accounting.nodeTotals(nodeId), runUsage: () => accounting.runTotals() }
        : accounting
          ? { runUsage: () => accounting.runTotals() }
          : {}),
      artifactCount: () => artifacts.list().length,
    });
    guarded('writing the event log', () => recorder.event(event));
    if (tracer) traceEvent(tracer, event);
    // Whoever hears the run end finds every record on disk: from the end on, callbacks wait for them.
    if (TERMINAL_EVENTS.has(kind) && ours) delivering ??= recorder.recorded().catch(() => {});
    const onEvent = options.onEvent;
    if (!onEvent) return;
    if (delivering)
      delivering = delivering.then(() => void guarded('the onEvent callback', () => onEvent(event)));
    else guarded('the onEvent callback', () => onEvent(event));
  };

  const writeCheckpoint = (context: PipelineMachineContext, currentNode: string, status: RunStatus): void => {
    const written = guarded('writing the checkpoint', () =>
      recorder.checkpoint(checkpointParts(prepared, context, currentNode, status, accounting?.runTotals())),
    );
    if (written)
      emitEvent('checkpoint.saved', { current_node: currentNode, status }, currentNode || undefined);
  };

  const hard = new AbortController();
  // Every running handler listens on it (detachably): twelve parallel branches are twelve listeners,
  // not a leak, and Node's warning at eleven would go to the user's terminal.
  setMaxListeners(0, hard.signal);
  const processes = ProcessLedger.forRunDir(runDir);
  const lazyTree = lazyRunTree(options.workingDir ?? process.cwd(), runDir, runId);
  let tree: RunTreeService | undefined;
  const machine = providePipeline(compiled, {
    ...runServices(options),
    artifacts,
    processes,
    sandbox: sandboxSettingsForRun(sandboxOrDefault(options.sandbox), runDir, options.runsRoot),
    stages: recorder.stages,
    branchCheckpoints: recorder.branches,
    // The first node that does work starts once the run's tree is ready too (a resume's restored).
    recorded: () =>
      tree ? Promise.all([recorder.recorded(), tree.ready]).then(() => {}) : recorder.recorded(),
    ...(options.tree
      ? { snapshotTree: (nodeId: string) => tree?.snapshot(nodeId) ?? Promise.resolve(undefined) }
      : {}),
    // A parallel node's isolated branches: the run's own tree when it keeps one, else one opened on demand.
    workingTree: async () => (tree ? tree.ready.then(() => tree?.tree()) : lazyTree()),
    ...(tracer ? { traceparent: (nodeId: string) => tracer.traceparent(nodeId) } : {}),
    emit: emitEvent,
    signal: hard.signal,
  });
  // Before the run's first event, so a reader sees what the pipeline was warned about before it runs.
  if (prepared.warnings.length > 0) options.onWarnings?.(prepared.warnings);
  emitEvent(prepared.fresh ? 'pipeline.start' : 'pipeline.resume', {
    name: graph.name,
    goal: graph.attrs.goal ?? '',
    run_id: runId,
    run_dir: runDir,
    ...(prepared.fresh ? {} : { resume_at: prepared.input.startAt }),
    ...(prepared.afterFailure ? { after_failure: prepared.afterFailure } : {}),
    ...(prepared.forkedFrom ? { forked_from: prepared.forkedFrom } : {}),
  });
  if (options.tree)
    tree = createRunTreeService({
      workDir: options.workingDir ?? process.cwd(),
      runDir,
      runId,
      fresh: prepared.fresh,
      head: prepared.input.treeHead,
      resumeAt: prepared.input.startAt,
      settings: options.tree,
      emit: emitEvent,
      fail: (error) => failure.report(error),
      ...carrierOf(runDir, options),
    });
  // The run lock is ours, so whoever ran this before is dead: stop what it left running before the
  // interrupted node runs again beside it.
  if (!prepared.fresh) {
    restoreStageRecords(runDir, graph, options.registry, prepared.input);
    stopLeftoverProcesses(processes, {
      onStopped: ({ entry, pids, killed }) =>
        emitEvent(
          'process.stopped',
          { pgid: entry.pgid, command: entry.command, processes: pids.length, killed },
          entry.node || undefined,
        ),
    });
  }
  const actor = createActor(machine, {
    input: prepared.input,
    ...(options.inspect ? { inspect: options.inspect } : {}),
  });
  actor.on('*', (e: MachineEmitted) => {
    if (e.type === 'pipeline.event') emitEvent(e.kind, e.data, e.nodeId);
    else writeCheckpoint(e.context, e.currentNode, e.status);
  });
  const done = whenPipelineDone(actor);
  const stopNow = (reason: AttractorError, event: Parameters<typeof actor.send>[0]): void => {
    hard.abort(reason);
    sendWhileActive(actor, event);
  };
  failure.onStop(() => stopNow(new AttractorError('CANCELLED', 'run stopped'), { type: 'CANCEL' }));
  // A spent budget stops the run at once, but paused: resuming with more budget is the normal next step.
  const budgetSignal = accounting?.budgetSignal;
  const onBudget = (): void => {
    const reason = budgetSignal?.reason;
    const message = reason instanceof Error ? reason.message : 'the run spent its cost budget';
    stopNow(new AttractorError('BUDGET_EXCEEDED', message), { type: 'PAUSE_NOW', reason: 'budget', message });
  };
  budgetSignal?.addEventListener('abort', onBudget, { once: true });
  actor.start();

  const result = done
    .then(({ status, context }) => {
      if (failure.error) throw failure.error;
      const { result, finalize } = runOutcome(graph, status, context, {
        runId,
        runDir,
        ...(accounting ? { usage: accounting.runTotals() } : {}),
      });
      emitEvent('pipeline.finalize', finalize);
      return result;
    })
    .finally(async () => {
      budgetSignal?.removeEventListener('abort', onBudget);
      tracer?.end();
      await tree?.idle();
      try {
        await recorder.close();
      } finally {
        await delivering;
        releaseLock();
      }
    });

  return {
    runId,
    runDir,
    warnings: prepared.warnings,
    result,
    events: () => recorder.events(),
    pause: () => actor.send({ type: 'PAUSE' }),
    cancel: () => stopNow(new AttractorError('CANCELLED', 'run cancelled'), { type: 'CANCEL' }),
  };
}

/** Tracing is the user's instrument, never the run's risk: a tracer that throws is left out of it. */
function traceEvent(tracer: RunTracer, event: PipelineEvent): void {
  try {
    tracer.record(event);
  } catch {
    // The span tree misses this event; the run and its records do not.
  }
}

/** How the run's snapshots travel (its record sink's bundles, or a git remote), when they do. */
function carrierOf(runDir: string, options: RunOptions): { carrier?: TreeCarrier } {
  const carrier = treeCarrier(runDir, options.recordSink, options.tree?.remote);
  return carrier ? { carrier } : {};
}

/** The services a run's handlers get from its options (the library simulates nothing on its own). */
function runServices(options: RunOptions): PipelineServices {
  const interviewer = options.scenario
    ? createScenarioInterviewer(options.scenario, options.interviewer ?? missingInterviewer())
    : options.interviewer;
  return {
    ...(options.registry ? { registry: options.registry } : {}),
    ...(interviewer ? { interviewer } : {}),
    ...(options.backend ? { backend: options.backend } : {}),
    ...(options.scenario ? { scenario: options.scenario } : {}),
    ...(options.workingDir ? { workingDir: options.workingDir } : {}),
    ...(options.llmRank ? { llmRank: options.llmRank } : {}),
    ...(options.durable !== undefined ? { durable: options.durable } : {}),
    ...(options.random ? { random: options.random } : {}),
  };
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
      ...(context.arrivedBy !== undefined ? { arrived_by: context.arrivedBy } : {}),
      status,
      node_outcomes: context.nodeOutcomes,
      steps: context.steps,
      restarts: context.restarts,
      failed_nodes: context.failedNodes,
      ...(context.failure && status !== 'paused' ? { failure: context.failure } : {}),
      source_sha256: prepared.sha,
      ...(usage ? { usage } : {}),
      ...(context.treeHead ? { tree_head: context.treeHead } : {}),
      ...(context.treeCommits ? { tree_commits: context.treeCommits } : {}),
      ...(context.treeSkipped ? { tree_skipped: context.treeSkipped } : {}),
    },
    values: context.values,
    visits: context.visits,
  };
}
