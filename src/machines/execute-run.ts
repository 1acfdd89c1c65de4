import { setMaxListeners } from 'node:events';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Actor, createActor } from 'xstate';
import { ProcessLedger } from '../actors/process/process-ledger.js';
import { stopLeftoverProcesses } from '../actors/process/stop-leftover-processes.js';
import { ArtifactStore } from '../shared/artifact-store.js';
import { AttractorError } from '../shared/errors.js';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import { removePresentFile } from '../shared/remove-file.js';
import { type Checkpoint, createCheckpointWriter } from './checkpoint.js';
import { leasePipeline } from './compile-machine.js';
import { openEventLog } from './event-log.js';
import type { MachineEmitted } from './machine-events.js';
import type { PipelineMachineContext } from './pipeline-context.js';
import type { PipelineMachine } from './pipeline-machine.js';
import { missingInterviewer } from './pipeline-services.js';
import { refuseOverwrites } from './resolve-run-dir.js';
import { makeRunFolder, type RunFiles, writeRunFiles } from './run-directory.js';
import { RunEventFeed } from './run-event-feed.js';
import { acquireRunLock } from './run-lock.js';
import { manifestOf } from './run-manifest.js';
import {
  type PipelineRun,
  type Prepared,
  partialNodesOf,
  type RunOptions,
  type RunResult,
  runQuality,
} from './run-types.js';
import { createScenarioInterviewer } from './scenario-interviewer.js';
import { restoreStageRecords, runsBuiltInRouting, StageRecords } from './stage-records.js';
import { valuesWithVisits } from './visit-counts.js';
import { whenPipelineDone } from './watch-pipeline-actor.js';

/** The events that say the run is over (or stopped): every node's record is on disk when they are heard. */
const TERMINAL_EVENTS = new Set([
  'pipeline.complete',
  'pipeline.error',
  'pipeline.paused',
  'pipeline.cancelled',
]);

/**
 * Run a prepared pipeline: create or reopen its run directory, wire the machine's emitted events to the
 * event log, the checkpoint writer and `onEvent`, build the services handlers get, start the actor and
 * turn its end into a RunResult.
 */
export function executeRun(prepared: Prepared, options: RunOptions): PipelineRun {
  const { runDir } = prepared;
  if (prepared.fresh) makeRunFolder(runDir);
  // Before anything is written in the folder: a second run started there is refused untouched.
  // A lock left by a run that died starting: the first look at the folder left it to the lock.
  const leftLock = prepared.fresh && existsSync(join(runDir, 'run.lock'));
  const releaseLock = acquireRunLock(runDir, { fresh: prepared.fresh });
  let runFiles: RunFiles | undefined;
  try {
    // Now that the folder is ours, the look the lock stood in for.
    if (leftLock)
      refuseOverwrites(
        runDir,
        runDir,
        prepared.compiled.graph.nodes.map((node) => node.id),
        ['run.lock'],
      );
    // A durable run's pipeline.dot and manifest.json reach the disk while the engine starts; settled
    // before the first checkpoint (docs/decisions.md D28.1).
    runFiles = prepared.fresh
      ? writeRunFiles(runDir, prepared.source, manifestOf(prepared, options), {
          durable: options.durable ?? true,
        })
      : undefined;
    return startRun(prepared, options, runFiles, releaseLock);
  } catch (error) {
    // The run never started: it leaves no manifest (the folder can take a new run) and no lock.
    runFiles?.abandon();
    releaseLock();
    throw error;
  }
}

function startRun(
  prepared: Prepared,
  options: RunOptions,
  unsettledFiles: RunFiles | undefined,
  releaseLock: () => void,
): PipelineRun {
  const { compiled, runDir, runId } = prepared;
  const { graph } = compiled;
  let runFiles = unsettledFiles;
  // Once they failed, no checkpoint may be written: it would name a run whose manifest is missing.
  let runFilesFailure: unknown;
  const settleRunFiles = (): void => {
    if (runFilesFailure !== undefined) throw runFilesFailure;
    const files = runFiles;
    runFiles = undefined;
    try {
      files?.settle();
    } catch (error) {
      runFilesFailure = error;
      throw error;
    }
  };
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
  // The run's routing nodes' folders and status.json, made whenever checkpoint.json is written (D29.1).
  const stageRecords = new StageRecords(runDir);
  // Before the event log: of the two, only this one can refuse to start (a --checkpoint-dir it cannot make).
  const checkpoints = createCheckpointWriter({
    runDir,
    ...(options.checkpointDir ? { historyDir: options.checkpointDir } : {}),
    ...(options.durable !== undefined ? { durable: options.durable } : {}),
    fresh: prepared.fresh,
    beforeSnapshot: () => stageRecords.flush(),
    onError: (error) => failOutput(`writing the checkpoint ${join(runDir, 'checkpoint.json')}`, error),
  });
  const eventsFile = join(runDir, 'events.jsonl');
  // Where this run's lines begin (a resume appends after the earlier runs'): `run.events()` replays from there.
  const eventsStart = existsSync(eventsFile) ? statSync(eventsFile).size : 0;
  const log = openEventLog(eventsFile, (error) => failOutput(`writing ${eventsFile}`, error));
  const feed = new RunEventFeed(eventsFile, eventsStart, () => log.flush());
  // Durations are measured here, at the edge, so the machine's actions stay free of clocks.
  const runStarted = Date.now();
  const accounting = options.accounting;
  // A spent budget stops the run like a cancellation, but it ends `paused`: resuming with more budget is normal.
  let budgetStop: string | undefined;
  const nodeStarted = new Map<string, number>();
  const artifacts = new ArtifactStore(runDir);
  // Nodes run by a built-in routing handler (a type the registry overrides may do work): they do nothing a
  // reader of checkpoint.json must see them doing.
  const routingNodes = new Set(
    graph.nodes.filter((n) => runsBuiltInRouting(options.registry, n.handler)).map((n) => n.id),
  );
  // A restart forgets the completed nodes: the records of those still waiting must be on disk first.
  let restartsRecorded = prepared.input.restarts ?? 0;
  const flushStageRecords = (): boolean => {
    try {
      stageRecords.flush();
      return true;
    } catch (error) {
      failOutput(`writing the stage folders of ${runDir}`, error);
      return false;
    }
  };
  const emitEvent = (kind: string, data: Record<string, unknown> = {}, nodeId?: string): void => {
    // A node that does work (anything but routing) starts with checkpoint.json naming it: whoever reads
    // the file while it runs, or after a crash in it, sees where the run is (docs/decisions.md D23.1).
    if (kind === 'node.start' && nodeId && !data['branch'] && !data['parent'] && !routingNodes.has(nodeId)) {
      try {
        checkpoints.flush();
      } catch (error) {
        failOutput(`writing the checkpoint ${checkpoints.path}`, error);
      }
    }
    // Whoever hears that the run is over finds every node's record in place (routing nodes' wait for
    // checkpoint.json, D29.1, which the run's last one follows this event).
    if (TERMINAL_EVENTS.has(kind) && !data['branch'] && !data['parent']) flushStageRecords();
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
    // Spec §9.6: completion and failure carry the run's duration, completion its artifact count.
    // A child pipeline's own pipeline.* events (tagged `parent`) are not the run's.
    const ours = !data['parent'] && !data['branch'];
    if (ours && (kind === 'pipeline.finalize' || kind === 'pipeline.error'))
      timed = { ...data, duration_ms: now - runStarted };
    if (ours && kind === 'pipeline.complete')
      timed = { ...data, duration_ms: now - runStarted, artifact_count: artifacts.list().length };
    if (accounting && nodeId && kind === 'node.complete') {
      const usage = accounting.nodeTotals(nodeId);
      if (usage) timed = { ...timed, usage };
    }
    if (accounting && kind === 'pipeline.finalize') timed = { ...timed, usage: accounting.runTotals() };
    let eventKind = kind;
    if (budgetStop !== undefined && kind === 'pipeline.cancelled') {
      eventKind = 'pipeline.paused';
      timed = { ...timed, reason: 'budget', message: budgetStop };
    }
    const event: PipelineEvent = {
      kind: eventKind,
      ...(nodeId ? { node_id: nodeId } : {}),
      data: timed,
      timestamp: new Date(now).toISOString(),
    };
    try {
      log.append(event);
    } catch (error) {
      failOutput(`writing ${join(runDir, 'events.jsonl')}`, error);
    }
    feed.publish(event);
    try {
      options.onEvent?.(event);
    } catch (error) {
      failOutput('the onEvent callback', error);
    }
  };
  const writeCheckpoint = (
    context: PipelineMachineContext,
    currentNode: string,
    status: Checkpoint['status'],
  ) => {
    try {
      settleRunFiles();
    } catch (error) {
      failOutput(`writing ${join(runDir, 'manifest.json')} and pipeline.dot`, error);
      return;
    }
    try {
      log.flush();
    } catch (error) {
      failOutput(`writing ${join(runDir, 'events.jsonl')}`, error);
    }
    if (context.restarts !== restartsRecorded) {
      if (!flushStageRecords()) return;
      restartsRecorded = context.restarts;
    }
    try {
      checkpoints.write({
        header: {
          timestamp: Date.now(),
          current_node: currentNode,
          completed_nodes: context.completedNodes,
          node_retries: context.nodeRetries,
          logs: context.logs,
          pipeline: graph.name,
          run_id: runId,
          run_dir: runDir,
          ...(context.arrivedBy !== undefined ? { arrived_by: context.arrivedBy } : {}),
          status: budgetStop !== undefined && status === 'cancelled' ? 'paused' : status,
          node_outcomes: context.nodeOutcomes,
          steps: context.steps,
          restarts: context.restarts,
          failed_nodes: context.failedNodes,
          ...(context.failure && budgetStop === undefined ? { failure: context.failure } : {}),
          source_sha256: prepared.sha,
          ...(accounting ? { usage: accounting.runTotals() } : {}),
        },
        values: context.values,
        visits: context.visits,
      });
    } catch (error) {
      failOutput(`writing the checkpoint ${checkpoints.path}`, error);
      return;
    }
    emitEvent('checkpoint.saved', { current_node: currentNode, status }, currentNode || undefined);
  };

  const hard = new AbortController();
  // Every running handler listens on it (detachably): twelve parallel branches are twelve listeners,
  // not a leak, and Node's warning at eleven would go to the user's terminal.
  setMaxListeners(0, hard.signal);
  // The library simulates nothing on its own: no interviewer or backend → the node needing one fails.
  const interviewer = options.scenario
    ? createScenarioInterviewer(options.scenario, options.interviewer ?? missingInterviewer())
    : options.interviewer;
  // Nothing may stay open or leased when the run cannot start (executeRun gives up its files and lock).
  let releaseMachine: () => void = () => {};
  let launched: { actor: Actor<PipelineMachine>; done: ReturnType<typeof whenPipelineDone> };
  try {
    const processes = ProcessLedger.forRunDir(runDir);
    const lease = leasePipeline(
      compiled,
      {
        artifacts,
        processes,
        ...(options.registry ? { registry: options.registry } : {}),
        ...(interviewer ? { interviewer } : {}),
        ...(options.backend ? { backend: options.backend } : {}),
        ...(options.scenario ? { scenario: options.scenario } : {}),
        ...(options.workingDir ? { workingDir: options.workingDir } : {}),
        ...(options.llmRank ? { llmRank: options.llmRank } : {}),
        ...(options.durable !== undefined ? { durable: options.durable } : {}),
        emit: emitEvent,
        signal: hard.signal,
        ...(options.random ? { random: options.random } : {}),
      },
      stageRecords,
    );
    releaseMachine = lease.release;
    const machine = lease.machine;
    emitEvent(prepared.fresh ? 'pipeline.start' : 'pipeline.resume', {
      name: graph.name,
      goal: graph.attrs.goal ?? '',
      run_id: runId,
      run_dir: runDir,
      ...(prepared.fresh ? {} : { resume_at: prepared.input.startAt }),
      ...(prepared.afterFailure ? { after_failure: prepared.afterFailure } : {}),
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
    actor.start();
    launched = { actor, done };
  } catch (error) {
    checkpoints.close();
    log.close();
    feed.end();
    releaseMachine();
    // A new run's log is its own: gone with it, so the folder can take the next run.
    if (prepared.fresh) removePresentFile(eventsFile);
    throw error;
  }
  const { actor, done } = launched;
  const execution = {
    cancel: () => actor.send({ type: 'CANCEL' }),
    pause: () => actor.send({ type: 'PAUSE' }),
  };

  stopRun = () => {
    hard.abort(new AttractorError('CANCELLED', 'run stopped'));
    execution.cancel();
  };
  const budgetSignal = accounting?.budgetSignal;
  const onBudget = () => {
    const reason = budgetSignal?.reason;
    budgetStop = reason instanceof Error ? reason.message : 'the run spent its cost budget';
    hard.abort(new AttractorError('BUDGET_EXCEEDED', budgetStop));
    execution.cancel();
  };
  budgetSignal?.addEventListener('abort', onBudget, { once: true });

  const result = done
    .then(({ status, context }): RunResult => {
      if (outputFailure) throw outputFailure;
      const budgetPaused = budgetStop !== undefined && status === 'cancelled';
      const final = status === 'branch_done' ? 'completed' : budgetPaused ? 'paused' : status;
      const failure = budgetPaused ? undefined : context.failure;
      const q = runQuality(final, context.failedNodes);
      const partialNodes = partialNodesOf(context.nodeOutcomes);
      emitEvent('pipeline.finalize', {
        status: final,
        quality: q,
        ...(failure ? { reason: failure.reason } : {}),
        ...(budgetPaused ? { reason: budgetStop } : {}),
        failed_nodes: [...context.failedNodes],
        partial_nodes: partialNodes,
      });
      return {
        status: final,
        quality: q,
        runId,
        runDir,
        ...(context.stoppedAt ? { stoppedAt: context.stoppedAt } : {}),
        ...(failure ? { failure } : {}),
        ...(budgetPaused ? { budgetExceeded: budgetStop } : {}),
        ...(accounting ? { usage: accounting.runTotals() } : {}),
        context: valuesWithVisits(context.values, context.visits),
        completedNodes: context.completedNodes,
        failedNodes: [...context.failedNodes],
        partialNodes,
      };
    })
    .finally(() => {
      budgetSignal?.removeEventListener('abort', onBudget);
      // Settled by the first checkpoint already, unless the run ended before writing any.
      let closing: { what: string; error: unknown } | undefined;
      if (runFilesFailure === undefined) {
        try {
          settleRunFiles();
        } catch (error) {
          closing = { what: join(runDir, 'manifest.json'), error };
        }
      }
      try {
        checkpoints.close();
      } catch (error) {
        closing ??= { what: checkpoints.path, error };
      }
      log.close();
      feed.end();
      releaseLock();
      releaseMachine();
      if (closing !== undefined) {
        const { what, error } = closing;
        const detail = error instanceof Error ? error.message : String(error);
        throw new AttractorError('RUN_OUTPUT_FAILED', `writing ${what} failed: ${detail}.`, { cause: error });
      }
    });

  return {
    runId,
    runDir,
    warnings: prepared.warnings,
    result,
    events: () => feed.events(),
    pause: () => execution.pause(),
    cancel: () => {
      hard.abort(new AttractorError('CANCELLED', 'run cancelled'));
      execution.cancel();
    },
  };
}
