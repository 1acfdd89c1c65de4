import { join } from 'node:path';
import { type AnyActorRef, createActor } from 'xstate';
import { CHILD_STARTED } from '../actors/handler-actor-logic.js';
import type {
  BranchResult,
  ChildPipelineHandle,
  ChildPipelineStatus,
  HandlerServices,
} from '../actors/handler-types.js';
import { copyOutcome, type Outcome } from '../compiler/outcome.js';
import { definedFields } from '../shared/defined-fields.js';
import type { EmitEvent } from '../shared/pipeline-event.js';
import { ChildDepthExceededError } from './child-nesting.js';
import { type ChildCheckpoint, type ChildPipelineStore, noChildPipelines } from './child-pipeline-store.js';
import type { InvocationRuntime } from './invocation-runtime.js';
import type { PipelineMachineContext, PipelineMachineInput } from './machine-context.js';
import type { MachineEmitted } from './machine-events.js';
import { resumeInputFrom } from './resume-input-from.js';
import { sendWhileActive } from './send-while-active.js';
import { safeSegment, stageDirFor } from './stage-dir.js';
import { unrecordedStages } from './stage-store.js';
import { valuesWithVisits } from './visit-counts.js';
import { type FinalStatus, finalStatusOf, whenPipelineDone } from './watch-pipeline-actor.js';

type BranchRequest = Parameters<HandlerServices['runBranch']>[0];
type ChildRequest = Parameters<HandlerServices['startChildPipeline']>[0];

/** The run's store of child pipelines (none given: a manager loop fails saying so). */
export function childPipelinesOf(runtime: InvocationRuntime): ChildPipelineStore {
  return runtime.services.childPipelines ?? noChildPipelines;
}

/** What a child keeps at each step so that a re-run manager continues it. */
function childCheckpoint(
  sha: string,
  context: PipelineMachineContext,
  currentNode: string,
  status: string,
): ChildCheckpoint {
  return {
    source_sha256: sha,
    status,
    current_node: currentNode,
    completed_nodes: context.completedNodes,
    node_outcomes: context.nodeOutcomes,
    node_retries: context.nodeRetries,
    context: valuesWithVisits(context.values, context.visits),
    steps: context.steps,
    restarts: context.restarts,
    failed_nodes: context.failedNodes,
    logs: [...context.logs],
    ...definedFields({ arrived_by: context.arrivedBy }),
  };
}

/**
 * Start a pipeline actor as a child of a handler actor, named for what it is (`branch:<id>`,
 * `child:<manager node>`): in the handler's `snapshot.children` while it runs, and in the actor system
 * under its run directory (`system.get(runDir)`), so inspectors show it where it belongs.
 */
function startChildActor(
  runtime: InvocationRuntime,
  machine: ReturnType<InvocationRuntime['machine']>,
  parent: AnyActorRef,
  id: string,
  input: PipelineMachineInput,
  onCheckpoint?: (e: Extract<MachineEmitted, { type: 'checkpoint' }>) => void,
) {
  const emit: EmitEvent = runtime.services.emit ?? (() => {});
  const tags = input.tags ?? {};
  const actor = createActor(machine, { parent, id, systemId: input.runDir, input });
  parent.send({ type: CHILD_STARTED, child: actor });
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
  const machine = request.workingDir
    ? runtime.machineWith({
        workingDir: request.workingDir,
        ...definedFields({ workingTree: request.workingTree }),
      })
    : runtime.machine();
  const { actor, done } = startChildActor(runtime, machine, parent, `branch:${request.branchId}`, {
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
  const onAbort = () => sendWhileActive(actor, { type: 'CANCEL' });
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
        : final.lastOutcome
          ? copyOutcome(final.lastOutcome)
          : { status: 'success' };
    return {
      branchId: request.branchId,
      startNodeId: request.startNodeId,
      outcome,
      context: finalValues,
      updates,
      ...(final.stoppedAt ? { stoppedAt: final.stoppedAt } : {}),
      completedNodes: [...final.completedNodes],
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

function childStatus(
  state: ChildPipelineStatus['state'],
  ctx: PipelineMachineContext,
  at?: string,
): ChildPipelineStatus {
  return {
    state,
    ...(at ? { currentNode: at } : {}),
    completedNodes: [...ctx.completedNodes],
    context: valuesWithVisits(ctx.values, ctx.visits),
    ...(ctx.lastOutcome ? { outcome: copyOutcome(ctx.lastOutcome) } : {}),
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
  const store = childPipelinesOf(runtime);
  const manager = request.managerNodeId;
  if (runtime.childLevels < 1) throw new ChildDepthExceededError(manager ?? 'child');
  const { machine, startAt, sha } = runtime.childMachine(
    request.dotFile,
    request.workingDir ? { workingDir: request.workingDir } : {},
  );
  const childDir = manager
    ? join(context.runDir, safeSegment(manager), 'child')
    : join(context.runDir, 'child');
  const base = {
    runDir: childDir,
    maxSteps: context.maxSteps,
    tags: { ...context.tags, parent: manager ?? 'child' },
  };
  const saved = store.checkpoint(childDir, sha);
  const forget = (): void => store.clearCheckpoint(childDir);
  // Finished before the crash that interrupted its manager: report the result, never run it again.
  if (saved && (saved.status === 'completed' || saved.status === 'failed')) {
    const finished: ChildPipelineStatus = {
      state: saved.status,
      currentNode: saved.current_node,
      completedNodes: [...saved.completed_nodes],
      context: saved.context,
      ...(saved.logs.length > 0 ? { logs: [...saved.logs] } : {}),
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
  // A checkpoint the disk refuses (a path too long, a full disk) stops the child and fails its manager's
  // node: thrown here, inside the actor's event delivery, it would escape every handler and end the process.
  let unsaved: string | undefined;
  const { actor, done } = startChildActor(
    runtime,
    machine,
    parent,
    `child:${manager ?? 'child'}`,
    saved ? resumeInputFrom(saved, base) : { ...base, startAt, values: structuredClone(request.context) },
    (e) => {
      if (unsaved !== undefined) return;
      try {
        store.saveCheckpoint(childDir, childCheckpoint(sha, e.context, e.currentNode, e.status));
      } catch (error) {
        unsaved = `cannot save the child pipeline's checkpoint: ${error instanceof Error ? error.message : String(error)}`;
        queueMicrotask(() => sendWhileActive(actor, { type: 'CANCEL' }));
      }
    },
  );
  const cancel = () => sendWhileActive(actor, { type: 'CANCEL' });
  request.signal.addEventListener('abort', cancel, { once: true });
  const status = (): ChildPipelineStatus => {
    const snap = actor.getSnapshot();
    const ctx = snap.context as PipelineMachineContext;
    // A child that ended in __failed is done too: it must not read as completed.
    const state = snap.status === 'active' ? 'running' : childState(finalStatusOf(snap.value));
    return withUnsaved(unsaved, {
      ...childStatus(state, ctx, ctx.lastNode),
      runDir: childDir,
      ...activeStageDir(runtime, ctx.lastNode && stageDirFor(childDir, ctx.lastNode, ctx.restarts)),
    });
  };
  return {
    status,
    steer: (message) => actor.send({ type: 'STEER', message }),
    done: done.then(({ status: s, context: ctx }) =>
      withUnsaved(unsaved, childStatus(childState(s), ctx, ctx.stoppedAt)),
    ),
    cancel,
    forget,
  };
}

/** A child whose checkpoint could not be saved has failed, for that reason, whatever it did since. */
function withUnsaved(unsaved: string | undefined, status: ChildPipelineStatus): ChildPipelineStatus {
  if (unsaved === undefined) return status;
  return { ...status, state: 'failed', outcome: { status: 'fail', failure_reason: unsaved } };
}

/** The stage directory to steer into, once the child's node has its folder (one about to start has none yet). */
function activeStageDir(runtime: InvocationRuntime, dir: string | undefined): { stageDir?: string } {
  const stages = runtime.services.stages ?? unrecordedStages;
  return dir && stages.exists(dir) ? { stageDir: dir } : {};
}
