import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { type AnyActorRef, createActor } from 'xstate';
import type {
  BranchResult,
  ChildPipelineHandle,
  ChildPipelineStatus,
  HandlerServices,
} from '../actors/handler-types.js';
import type { Outcome } from '../compiler/outcome.js';
import type { EmitEvent } from '../shared/pipeline-event.js';
import { clearChildCheckpoint, readChildCheckpoint, writeChildCheckpoint } from './child-checkpoint.js';
import type { InvocationRuntime } from './invocation-runtime.js';
import type { MachineEmitted } from './machine-events.js';
import { activeStageDir } from './observe-child-run.js';
import type { PipelineMachineContext, PipelineMachineInput } from './pipeline-context.js';
import { resumeInputFrom } from './resume-input-from.js';
import { safeSegment, stageDirFor } from './run-directory.js';
import { valuesWithVisits } from './visit-counts.js';
import { type FinalStatus, finalStatusOf, whenPipelineDone } from './watch-pipeline-actor.js';

type BranchRequest = Parameters<HandlerServices['runBranch']>[0];
type ChildRequest = Parameters<HandlerServices['startChildPipeline']>[0];

/** Start a pipeline actor as a child of a handler actor: same actor system, so inspectors see it there. */
function startChildActor(
  runtime: InvocationRuntime,
  machine: ReturnType<InvocationRuntime['machine']>,
  parent: AnyActorRef,
  input: PipelineMachineInput,
  onCheckpoint?: (e: Extract<MachineEmitted, { type: 'checkpoint' }>) => void,
) {
  const emit: EmitEvent = runtime.services.emit ?? (() => {});
  const tags = input.tags ?? {};
  const actor = createActor(machine, { parent, input });
  if (onCheckpoint)
    actor.on('checkpoint', (e) => onCheckpoint(e as Extract<MachineEmitted, { type: 'checkpoint' }>));
  // The child's own checkpoints are not the run's: only its events go on, tagged.
  actor.on('pipeline.event', (e) => {
    const event = e as Extract<MachineEmitted, { type: 'pipeline.event' }>;
    emit(event.kind, { ...event.data, ...tags }, event.nodeId);
  });
  const done = whenPipelineDone(actor);
  actor.start();
  return { actor, done };
}

/** Run one parallel branch: another actor of the same machine, stopping at a fan-in node. */
export async function runBranch(
  runtime: InvocationRuntime,
  parent: AnyActorRef,
  context: PipelineMachineContext,
  request: BranchRequest,
): Promise<BranchResult> {
  // An abort that already happened fires no event: without this check the branch would run in full.
  if (request.signal.aborted || runtime.services.signal?.aborted) {
    return {
      branchId: request.branchId,
      startNodeId: request.startNodeId,
      outcome: { status: 'fail', failure_reason: 'cancelled before the branch started' },
      context: structuredClone(request.context),
      updates: {},
      completedNodes: [],
    };
  }
  // Updates are found by identity against this clone: the machine copies values shallowly, so a value
  // the branch left alone keeps its reference (comparing with `request.context` would flag every object).
  const startValues = structuredClone(request.context);
  const { actor, done } = startChildActor(runtime, runtime.machine(), parent, {
    startAt: request.startNodeId,
    // Under the parallel node's folder, so nested or separate parallels cannot share branch folders.
    runDir: join(
      context.runDir,
      ...(request.parallelNodeId ? [safeSegment(request.parallelNodeId)] : []),
      'branches',
      safeSegment(request.branchId),
    ),
    values: startValues,
    maxSteps: context.maxSteps,
    branch: true,
    tags: { ...context.tags, branch: request.branchId },
  });
  const onAbort = () => actor.send({ type: 'CANCEL' });
  request.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const { status, context: final } = await done;
    const finalValues = valuesWithVisits(final.values, final.visits);
    const updates: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(finalValues)) {
      if (startValues[k] !== v && k !== 'current_node' && k !== 'outcome' && k !== 'preferred_label')
        updates[k] = v;
    }
    const outcome: Outcome =
      status === 'failed' || status === 'cancelled'
        ? { status: 'fail', failure_reason: final.failure?.reason ?? status }
        : (final.lastOutcome ?? { status: 'success' });
    return {
      branchId: request.branchId,
      startNodeId: request.startNodeId,
      outcome,
      context: finalValues,
      updates,
      ...(final.stoppedAt ? { stoppedAt: final.stoppedAt } : {}),
      completedNodes: final.completedNodes,
      ...(final.logs.length > 0 ? { logs: [...final.logs] } : {}),
    };
  } finally {
    request.signal.removeEventListener('abort', onAbort);
  }
}

/** A finished child's state from its final state: only completing counts as `completed`. */
function childState(status: FinalStatus): ChildPipelineStatus['state'] {
  if (status === 'completed' || status === 'branch_done') return 'completed';
  return status === 'cancelled' ? 'cancelled' : 'failed';
}

function childStatus(state: ChildPipelineStatus['state'], ctx: PipelineMachineContext, at?: string) {
  return {
    state,
    ...(at ? { currentNode: at } : {}),
    completedNodes: ctx.completedNodes,
    context: valuesWithVisits(ctx.values, ctx.visits),
    ...(ctx.lastOutcome ? { outcome: ctx.lastOutcome } : {}),
    ...(ctx.logs.length > 0 ? { logs: [...ctx.logs] } : {}),
  };
}

/** Start a manager loop's child pipeline as a child actor of the manager's handler actor. */
export function startChildPipeline(
  runtime: InvocationRuntime,
  parent: AnyActorRef,
  context: PipelineMachineContext,
  request: ChildRequest,
): ChildPipelineHandle {
  const { machine, startAt, source } = runtime.childMachine(
    request.dotFile,
    request.workingDir ? { workingDir: request.workingDir } : {},
  );
  const manager = request.managerNodeId;
  const childDir = manager
    ? join(context.runDir, safeSegment(manager), 'child')
    : join(context.runDir, 'child');
  const sha = createHash('sha256').update(source).digest('hex');
  const base = {
    runDir: childDir,
    maxSteps: context.maxSteps,
    tags: { ...context.tags, parent: manager ?? 'child' },
  };
  const saved = readChildCheckpoint(childDir, sha);
  const forget = (): void => clearChildCheckpoint(childDir);
  // Finished before the crash that interrupted its manager: report the result, never run it again.
  if (saved && (saved.status === 'completed' || saved.status === 'failed')) {
    const finished: ChildPipelineStatus = {
      state: saved.status,
      currentNode: saved.current_node,
      completedNodes: saved.completed_nodes,
      context: saved.context,
      ...(saved.logs.length > 0 ? { logs: saved.logs } : {}),
      runDir: childDir,
    };
    return {
      status: () => finished,
      steer: () => {},
      done: Promise.resolve(finished),
      cancel: () => {},
      forget,
    };
  }
  const { actor, done } = startChildActor(
    runtime,
    machine,
    parent,
    saved ? resumeInputFrom(saved, base) : { ...base, startAt, values: structuredClone(request.context) },
    (e) => writeChildCheckpoint(childDir, sha, e.context, e.currentNode, e.status),
  );
  const cancel = () => actor.send({ type: 'CANCEL' });
  request.signal.addEventListener('abort', cancel, { once: true });
  const status = (): ChildPipelineStatus => {
    const snap = actor.getSnapshot();
    const ctx = snap.context as PipelineMachineContext;
    // A child that ended in __failed is done too: it must not read as completed.
    const state = snap.status === 'active' ? 'running' : childState(finalStatusOf(snap.value));
    return {
      ...childStatus(state, ctx, ctx.lastNode),
      runDir: childDir,
      ...activeStageDir(ctx.lastNode && stageDirFor(childDir, ctx.lastNode, ctx.restarts)),
    };
  };
  return {
    status,
    steer: (message) => actor.send({ type: 'STEER', message }),
    done: done.then(({ status: s, context: ctx }) => childStatus(childState(s), ctx, ctx.stoppedAt)),
    cancel,
    forget,
  };
}
