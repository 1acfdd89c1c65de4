import { assign, enqueueActions, setup } from 'xstate';
import { resolveFidelity } from '../compiler/fidelity.js';
import type { MachineConfig } from '../compiler/lower/machine-config.js';
import { decorateConfig } from './decorate-config.js';
import { edgeSelectedData } from './edge-selected-event.js';
import type { HandlerActorLogic } from './invocation-runtime.js';
import type { MachineEmitted } from './machine-events.js';
import {
  initialContext,
  type PipelineMachineContext,
  type PipelineMachineInput,
} from './pipeline-context.js';
import type { GraphLookup } from './pipeline-runtime.js';
import { type RetryBackoffLogic, retryBackoffActor } from './retry-backoff-actor.js';
import { goalGatesAt, stepAfter } from './routing-memo.js';
import { type HandlerSettlement, settledNode } from './settled-node.js';
import { countVisit } from './visit-counts.js';

/**
 * Guards and actions of a handler's `onDone`/`onError` transitions also get the `settlement` (added by
 * decorateConfig): they route on the context as recording the outcome leaves it.
 */
type Settles = { settlement?: HandlerSettlement };
type NodeParams = { node: string } & Settles;
type EdgeParams = { node: string; edge: number } & Settles;
type JumpParams = { node: string; target: string } & Settles;
/** The config type a `setup()` result's `createMachine` takes. */
type SetupConfig<S> = S extends { createMachine: (config: infer C) => unknown } ? C : never;

/** Events a pipeline actor accepts. */
export type PipelineMachineEvent =
  | { type: 'PAUSE' }
  | { type: 'CANCEL' }
  | { type: 'STEER'; message: string };

export interface PipelineMachineOptions {
  lookup: GraphLookup;
  /** `handler.<type>` → actor logic, for every handler type the config invokes. */
  handlerActors: Record<string, HandlerActorLogic>;
  random?: () => number;
}

const evt = (kind: string, data: Record<string, unknown> = {}, nodeId?: string): MachineEmitted => ({
  type: 'pipeline.event',
  kind,
  data,
  ...(nodeId ? { nodeId } : {}),
});

/**
 * Attach the implementations (guards, actions, delays, handler actors) to the compiler's plain config.
 * Guards and actions are pure functions of (graph, context, event); all I/O happens in handler actors
 * and in the engine's listeners for the emitted events.
 */
export function setupPipelineMachine(config: MachineConfig, options: PipelineMachineOptions) {
  const { lookup } = options;
  const random = options.random ?? Math.random;
  const node = (p: NodeParams) => lookup.node(p.node);
  /**
   * The context a routing guard reads: as the settled handler's outcome will leave it. (Actions read the
   * context they are given: the recording action that comes first in their transition has assigned it.)
   */
  const routed = (context: PipelineMachineContext, p: NodeParams): PipelineMachineContext =>
    p.settlement ? settledNode(lookup, context, p.node, p.settlement).context : context;
  const stepOf = (context: PipelineMachineContext, p: NodeParams) =>
    stepAfter(lookup, routed(context, p), p.node);
  /** The run ends at this node: it is an exit, or no edge is eligible after its (non-FAIL) outcome. */
  const endsHere = (context: PipelineMachineContext, p: NodeParams): boolean =>
    node(p).handler === 'exit' || stepOf(context, p).kind === 'end';
  const picksEdge = (context: PipelineMachineContext, p: EdgeParams): boolean => {
    const step = stepOf(context, p);
    return step.kind === 'edge' && step.edge.index === p.edge;
  };

  const actors: Record<string, HandlerActorLogic | RetryBackoffLogic> = {
    ...options.handlerActors,
    retryBackoff: retryBackoffActor(lookup, random),
  };
  const pipelineSetup = setup({
    types: {} as {
      context: PipelineMachineContext;
      input: PipelineMachineInput;
      emitted: MachineEmitted;
      events: PipelineMachineEvent;
    },
    actors,
    guards: {
      stepLimitReached: ({ context }) => context.steps >= context.maxSteps,
      pauseRequested: ({ context }) => context.pauseRequested,
      isBranchRun: ({ context }) => context.branch,
      jumpTargetIs: ({ context }, p: NodeParams) => context.jumpTo === p.node,
      shouldRetry: ({ context }, p: NodeParams) => routed(context, p).retryPending,
      // The params also carry the edge's condition, label, weight and target, for people reading the
      // chart; the decision is the compiler's `nextStep`, asked once per context.
      routesToEdge: ({ context }, p: EdgeParams) => picksEdge(context, p),
      // A branch's edge into a fan-in ends the branch, unless the fan-in's `enter` would not stop it there.
      endsBranchAt: ({ context }, p: EdgeParams) =>
        context.branch &&
        !context.pauseRequested &&
        context.steps < context.maxSteps &&
        picksEdge(context, p),
      routesToRetryTarget: ({ context }, p: JumpParams) => {
        const step = stepOf(context, p);
        return step.kind === 'retry_target' && step.target === p.target;
      },
      // `next_node` naming a node the chart draws a jump to (a parallel node's fan-in).
      jumpsTo: ({ context }, p: JumpParams) => {
        const step = stepOf(context, p);
        return step.kind === 'jump' && step.target === p.target;
      },
      // What only the run knows: `next_node` naming a node without an edge, or a retry target naming no node.
      routesToJump: ({ context }, p: NodeParams) => {
        const kind = stepOf(context, p).kind;
        return kind === 'jump' || kind === 'retry_target';
      },
      routesToEnd: ({ context }, p: NodeParams) => stepOf(context, p).kind === 'end',
      // At an exit, and where the run would end at a node with no eligible edge (a dead end).
      goalGateRetries: ({ context }, p: JumpParams) => {
        if (!endsHere(context, p)) return false;
        const gates = goalGatesAt(lookup, routed(context, p));
        return !gates.ok && gates.target === p.target;
      },
      goalGateUnsatisfied: ({ context }, p: NodeParams) =>
        endsHere(context, p) && !goalGatesAt(lookup, routed(context, p)).ok,
    },
    actions: {
      startNode: enqueueActions(({ context, enqueue }, p: NodeParams) => {
        const attempt = (context.nodeRetries[p.node] ?? 0) + 1;
        const edge = context.arrivedBy !== undefined ? lookup.edge(context.arrivedBy) : undefined;
        const resolved = resolveFidelity({ ...(edge ? { edge } : {}), node: node(p), graph: lookup.graph });
        // docs/decisions.md (resume fidelity): the first `full` node after a resume sees `summary:high` once (its thread is gone).
        const degrade = resolved === 'full' && context.degradeFullFidelity;
        enqueue.assign({
          fidelity: degrade ? 'summary:high' : resolved,
          ...(degrade ? { degradeFullFidelity: false } : {}),
          steps: context.steps + 1,
          lastNode: p.node,
          jumpTo: undefined,
          llmChoice: undefined,
          values: { ...context.values, current_node: p.node },
          // A new visit (not a retry of this one) counts toward max_visits.
          ...(attempt === 1 ? { visits: countVisit(context.visits, p.node) } : {}),
        });
        enqueue.emit(
          evt('node.start', { attempt, handler: node(p).handler, step: context.steps + 1 }, p.node),
        );
      }),
      // First in every transition leaving `run`: it assigns what the transition's guard decided on.
      recordOutcome: enqueueActions(({ context, enqueue }, p: NodeParams) => record(enqueue, context, p)),
      recordError: enqueueActions(({ context, enqueue }, p: NodeParams) => record(enqueue, context, p)),
      traverseEdge: enqueueActions(({ context, enqueue }, p: EdgeParams) => {
        const edge = lookup.edge(p.edge);
        const step = stepAfter(lookup, context, p.node);
        enqueue.assign({ arrivedBy: p.edge });
        enqueue.emit(
          evt(
            'edge.selected',
            edgeSelectedData(p.node, { edge, step: step.kind === 'edge' ? step.step : 'condition' }),
            p.node,
          ),
        );
        enqueue.emit({
          type: 'checkpoint',
          context: { ...context, arrivedBy: p.edge },
          currentNode: edge.target,
          status: 'running',
        });
      }),
      restartLoop: enqueueActions(({ context, enqueue }, p: EdgeParams) => {
        const edge = lookup.edge(p.edge);
        const next = {
          ...context,
          completedNodes: [],
          nodeOutcomes: {},
          restarts: context.restarts + 1,
          arrivedBy: p.edge,
        };
        enqueue.assign({ completedNodes: [], nodeOutcomes: {}, restarts: next.restarts });
        enqueue.emit(evt('loop.restart', { target: edge.target, restart: next.restarts }, p.node));
        enqueue.emit({ type: 'checkpoint', context: next, currentNode: edge.target, status: 'running' });
      }),
      jumpFromNode: enqueueActions(({ context, enqueue }, p: NodeParams) => {
        const step = stepAfter(lookup, context, p.node);
        if (step.kind !== 'jump' && step.kind !== 'retry_target') return;
        const reason = step.kind === 'jump' ? `next_node from ${p.node}` : `retry target of ${p.node}`;
        enqueue.assign({ jumpTo: step.target, arrivedBy: undefined });
        const how = step.kind === 'jump' ? 'next_node' : step.via;
        enqueue.emit(
          evt('edge.selected', edgeSelectedData(p.node, { target: step.target, step: how }), p.node),
        );
        enqueue.emit(evt('node.jump', { target: step.target, reason }, p.node));
        enqueue.emit({
          type: 'checkpoint',
          context: { ...context, arrivedBy: undefined },
          currentNode: step.target,
          status: 'running',
        });
      }),
      jumpToRetryTarget: enqueueActions(({ context, enqueue }, p: JumpParams) => {
        const step = stepAfter(lookup, context, p.node);
        const how = step.kind === 'retry_target' ? step.via : 'retry_target';
        enqueue.assign({ arrivedBy: undefined });
        enqueue.emit(evt('edge.selected', edgeSelectedData(p.node, { target: p.target, step: how }), p.node));
        enqueue.emit(evt('node.jump', { target: p.target, reason: `retry target of ${p.node}` }, p.node));
        enqueue.emit({
          type: 'checkpoint',
          context: { ...context, arrivedBy: undefined },
          currentNode: p.target,
          status: 'running',
        });
      }),
      jumpForGoalGate: enqueueActions(({ context, enqueue }, p: JumpParams) => {
        const gates = goalGatesAt(lookup, context);
        enqueue.assign({ arrivedBy: undefined });
        enqueue.emit(
          evt('edge.selected', edgeSelectedData(p.node, { target: p.target, step: 'goal_gate' }), p.node),
        );
        enqueue.emit(evt('goal_gate.retry', { target: p.target }, gates.ok ? p.node : gates.gate));
        enqueue.emit({
          type: 'checkpoint',
          context: { ...context, arrivedBy: undefined },
          currentNode: p.target,
          status: 'running',
        });
      }),
      failGoalGate: enqueueActions(({ context, enqueue }, p: NodeParams) => {
        const gates = goalGatesAt(lookup, context);
        const gate = gates.ok ? p.node : gates.gate;
        const reason =
          (gates.ok ? undefined : gates.reason) ??
          `goal gate ${gate} did not succeed and no retry target is set`;
        endRun(enqueue, context, p.node, 'failed', { node: gate, reason });
      }),
      completeRun: enqueueActions(({ context, enqueue }, p: NodeParams) => {
        endRun(enqueue, context, p.node, 'completed');
      }),
      failRun: enqueueActions(({ context, enqueue }, p: NodeParams) => {
        const step = stepAfter(lookup, context, p.node);
        const reason = step.kind === 'fail' ? step.reason : `no route out of ${p.node}`;
        endRun(enqueue, context, p.node, 'failed', { node: p.node, reason });
      }),
      failStepLimit: enqueueActions(({ context, enqueue }, p: NodeParams) => {
        const reason = `step limit of ${context.maxSteps} reached before ${p.node} (raise it with --max-steps)`;
        endRun(enqueue, context, p.node, 'failed', { node: p.node, reason });
      }),
      failUnknownJump: enqueueActions(({ context, enqueue }) => {
        const reason = `cannot continue at unknown node "${context.jumpTo ?? ''}"`;
        endRun(enqueue, context, context.lastNode ?? '', 'failed', { reason });
      }),
      pauseAt: enqueueActions(({ context, enqueue }, p: NodeParams) => {
        enqueue.assign({ stoppedAt: p.node });
        enqueue.emit(evt('pipeline.paused', { resume_at: p.node }, p.node));
        enqueue.emit({ type: 'checkpoint', context, currentNode: p.node, status: 'paused' });
      }),
      stopBranchAt: assign({ stoppedAt: (_, p: NodeParams) => p.node }),
      requestPause: assign({ pauseRequested: true }),
      // A manager loop steers its child: the next node the child runs sees the message in its context.
      steer: assign({
        values: ({ context, event }) =>
          event.type === 'STEER' ? { ...context.values, 'manager.steer': event.message } : context.values,
      }),
      cancelRun: enqueueActions(({ context, enqueue }) => {
        const at = context.lastNode ?? '';
        enqueue.assign({ stoppedAt: at, failure: { node: at, reason: 'cancelled' } });
        enqueue.emit(evt('pipeline.cancelled', { resume_at: at }, at));
        enqueue.emit({ type: 'checkpoint', context, currentNode: at, status: 'cancelled' });
      }),
    },
  });
  // The compiled config names guards, actions and actors by string (it is plain data): decorateConfig
  // checks its shape and, once the machine exists, that every name it uses is implemented.
  const decorated = decorateConfig<SetupConfig<typeof pipelineSetup>>(config);
  const machine = pipelineSetup.createMachine({
    ...decorated.config,
    context: ({ input }) => initialContext(input),
  });
  decorated.verify(machine.implementations);
  return machine;

  function record(
    enqueue: { assign: (v: Partial<PipelineMachineContext>) => void; emit: (e: MachineEmitted) => void },
    context: PipelineMachineContext,
    p: NodeParams,
  ): void {
    const recorded = p.settlement && settledNode(lookup, context, p.node, p.settlement).recorded;
    if (!recorded) return;
    const { assigned, applied, raw } = recorded;
    enqueue.assign(assigned);
    if (applied.retrying) {
      enqueue.emit(
        evt(
          'node.retry',
          {
            attempt: applied.attempt,
            reason: raw.failure_reason ?? raw.notes ?? 'retry requested',
            ...(assigned.retryDelayMs !== undefined ? { delay_ms: assigned.retryDelayMs } : {}),
          },
          p.node,
        ),
      );
      enqueue.emit({
        type: 'checkpoint',
        context: { ...context, ...applied.context },
        currentNode: p.node,
        status: 'running',
      });
      return;
    }
    const o = applied.outcome;
    enqueue.emit(
      evt(
        'node.complete',
        {
          status: o.status,
          ...(o.preferred_label ? { preferred_label: o.preferred_label } : {}),
          ...(o.failure_reason ? { failure_reason: o.failure_reason } : {}),
          ...(o.notes ? { notes: o.notes } : {}),
        },
        p.node,
      ),
    );
  }
}

function endRun(
  enqueue: { assign: (v: Partial<PipelineMachineContext>) => void; emit: (e: MachineEmitted) => void },
  context: PipelineMachineContext,
  nodeId: string,
  status: 'completed' | 'failed',
  failure?: { node?: string; reason: string },
): void {
  enqueue.assign({ stoppedAt: nodeId, ...(failure ? { failure } : {}) });
  const next = { ...context, stoppedAt: nodeId, ...(failure ? { failure } : {}) };
  if (!context.branch) {
    if (status === 'completed') enqueue.emit(evt('pipeline.complete', {}, nodeId));
    else enqueue.emit(evt('pipeline.error', { error: failure?.reason ?? 'failed' }, failure?.node ?? nodeId));
  }
  enqueue.emit({ type: 'checkpoint', context: next, currentNode: nodeId, status });
}

export type PipelineMachine = ReturnType<typeof setupPipelineMachine>;
