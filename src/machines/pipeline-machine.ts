import { assign, enqueueActions, type PromiseActorLogic, setup } from 'xstate';
import { resolveFidelity } from '../compiler/fidelity.js';
import type { MachineConfig } from '../compiler/lower/machine-config.js';
import type { EventData, EventKind } from '../shared/pipeline-event.js';
import { decorateConfig } from './decorate-config.js';
import { edgeSelectedData } from './edge-selected-event.js';
import type { GraphLookup } from './graph-lookup.js';
import type { HandlerActorLogic } from './handler-actor-logic.js';
import type { HandlerActorOutput, HandlerInvocationInput } from './invocation-runtime.js';
import { initialContext, type PipelineMachineContext, type PipelineMachineInput } from './machine-context.js';
import type { MachineEmitted, MachineEvent } from './machine-events.js';
import { type HandlerSettlement, recordedOutcome } from './recorded-outcome.js';
import { type RetryBackoffLogic, retryBackoffActor } from './retry-backoff-actor.js';
import { decideRoute, type Route } from './route.js';
import { countVisit } from './visit-counts.js';

type NodeParams = { node: string };
/** The recording actions of a handler's `onDone`/`onError` also get how it ended (added by decorateConfig). */
type RecordParams = NodeParams & { settlement?: HandlerSettlement };
type EdgeParams = { node: string; edge: number };
type JumpParams = { node: string; target: string };
/** The config type a `setup()` result's `createMachine` takes. */
type SetupConfig<S> = S extends { createMachine: (config: infer C) => unknown } ? C : never;

/** Events a pipeline actor accepts. */
export type PipelineMachineEvent =
  /** Finish the running node, then stop paused. */
  | { type: 'PAUSE' }
  /** Stop at once: the running node is aborted and runs again on resume. */
  | { type: 'CANCEL' }
  /** Stop at once like CANCEL, but paused, saying why (`reason: 'budget'` when the cost budget is spent). */
  | { type: 'PAUSE_NOW'; reason: string; message: string }
  /** A manager loop's message to its child: the child's next node sees it in its context. */
  | { type: 'STEER'; message: string };

export interface PipelineMachineOptions {
  lookup: GraphLookup;
  /** `handler.<type>` → actor logic, for every handler type the config invokes. */
  handlerActors: Record<string, HandlerActorLogic>;
  random?: () => number;
}

const evt = <K extends EventKind>(kind: K, data: EventData<K>, nodeId?: string): MachineEmitted =>
  // The kind and its data are checked against each other by the signature; TypeScript cannot follow
  // a generic `K` into the union.
  ({ type: 'pipeline.event', kind, data, ...(nodeId ? { nodeId } : {}) }) as MachineEvent;

/**
 * Attach the implementations (guards, actions, delays, handler actors) to the compiler's plain config.
 * Guards and actions are pure functions of (graph, context, event); all I/O happens in handler actors
 * and in the engine's listeners for the emitted events.
 */
export function setupPipelineMachine(config: MachineConfig, options: PipelineMachineOptions) {
  const { lookup } = options;
  const random = options.random ?? Math.random;
  const node = (p: NodeParams) => lookup.node(p.node);
  const routeOf = (context: PipelineMachineContext): Route | undefined => context.route;
  const takesEdge = (context: PipelineMachineContext, p: EdgeParams): boolean => {
    const route = routeOf(context);
    return route?.kind === 'edge' && route.edge === p.edge;
  };
  const jumpsTo = (context: PipelineMachineContext, p: JumpParams, kinds: readonly Route['kind'][]) => {
    const route = routeOf(context);
    return (
      route !== undefined && kinds.includes(route.kind) && 'target' in route && route.target === p.target
    );
  };

  // An embedder may provide its own `handler.<type>` as a plain promise actor (`fromPromise`).
  const actors: Record<
    string,
    HandlerActorLogic | PromiseActorLogic<HandlerActorOutput, HandlerInvocationInput> | RetryBackoffLogic
  > = {
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
      // The routing state's guards read the route its entry decided (`context.route`). The params also
      // carry each edge's condition, label, weight and target, for people reading the chart.
      shouldRetry: ({ context }) => routeOf(context)?.kind === 'retry',
      routesToEdge: ({ context }, p: EdgeParams) => takesEdge(context, p),
      // A branch's edge into a fan-in ends the branch, unless the fan-in's `enter` would not stop it there.
      endsBranchAt: ({ context }, p: EdgeParams) =>
        context.branch &&
        !context.pauseRequested &&
        context.steps < context.maxSteps &&
        takesEdge(context, p),
      routesToRetryTarget: ({ context }, p: JumpParams) => jumpsTo(context, p, ['retry_target']),
      // `next_node` naming a node the chart draws a jump to (a parallel node's fan-in).
      jumpsTo: ({ context }, p: JumpParams) => jumpsTo(context, p, ['jump']),
      // What only the run knows: `next_node` naming a node without an edge, or a retry target naming no node.
      routesToJump: ({ context }) => {
        const kind = routeOf(context)?.kind;
        return kind === 'jump' || kind === 'retry_target';
      },
      routesToEnd: ({ context }) => routeOf(context)?.kind === 'end',
      goalGateRetries: ({ context }, p: JumpParams) => jumpsTo(context, p, ['goal_gate_retry']),
      goalGateUnsatisfied: ({ context }) => routeOf(context)?.kind === 'goal_gate_failed',
    },
    actions: {
      startNode: enqueueActions(({ context, enqueue }, p: NodeParams) => {
        const attempt = (context.nodeRetries[p.node] ?? 0) + 1;
        const edge = context.arrivedBy !== undefined ? lookup.edge(context.arrivedBy) : undefined;
        const resolved = resolveFidelity({ ...(edge ? { edge } : {}), node: node(p), graph: lookup.graph });
        // The first `full` node after a resume sees `summary:high` once: its thread is gone.
        const degrade = resolved === 'full' && context.degradeFullFidelity;
        enqueue.assign({
          fidelity: degrade ? 'summary:high' : resolved,
          ...(degrade ? { degradeFullFidelity: false } : {}),
          steps: context.steps + 1,
          lastNode: p.node,
          jumpTo: undefined,
          llmChoice: undefined,
          route: undefined,
          values: { ...context.values, current_node: p.node },
          // A new visit (not a retry of this one) counts toward max_visits.
          ...(attempt === 1 ? { visits: countVisit(context.visits, p.node) } : {}),
        });
        enqueue.emit(
          evt('node.start', { attempt, handler: node(p).handler, step: context.steps + 1 }, p.node),
        );
      }),
      // The handler settled: record its outcome. Routing happens after, in the node's `route` state.
      recordOutcome: enqueueActions(({ context, enqueue }, p: RecordParams) => record(enqueue, context, p)),
      recordError: enqueueActions(({ context, enqueue }, p: RecordParams) => record(enqueue, context, p)),
      decideRoute: assign({ route: ({ context }, p: NodeParams) => decideRoute(lookup, context, p.node) }),
      traverseEdge: enqueueActions(({ context, enqueue }, p: EdgeParams) => {
        const edge = lookup.edge(p.edge);
        const route = routeOf(context);
        enqueue.assign({ arrivedBy: p.edge });
        enqueue.emit(
          evt(
            'edge.selected',
            edgeSelectedData(p.node, { edge, step: route?.kind === 'edge' ? route.step : 'condition' }),
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
        const route = routeOf(context);
        if (route?.kind !== 'jump' && route?.kind !== 'retry_target') return;
        const reason = route.kind === 'jump' ? `next_node from ${p.node}` : `retry target of ${p.node}`;
        enqueue.assign({ jumpTo: route.target, arrivedBy: undefined });
        const how = route.kind === 'jump' ? 'next_node' : route.via;
        enqueue.emit(
          evt('edge.selected', edgeSelectedData(p.node, { target: route.target, step: how }), p.node),
        );
        enqueue.emit(evt('node.jump', { target: route.target, reason }, p.node));
        enqueue.emit({
          type: 'checkpoint',
          context: { ...context, arrivedBy: undefined },
          currentNode: route.target,
          status: 'running',
        });
      }),
      jumpToRetryTarget: enqueueActions(({ context, enqueue }, p: JumpParams) => {
        const route = routeOf(context);
        const how = route?.kind === 'retry_target' ? route.via : 'retry_target';
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
        const route = routeOf(context);
        enqueue.assign({ arrivedBy: undefined });
        enqueue.emit(
          evt('edge.selected', edgeSelectedData(p.node, { target: p.target, step: 'goal_gate' }), p.node),
        );
        enqueue.emit(
          evt(
            'goal_gate.retry',
            { target: p.target },
            route?.kind === 'goal_gate_retry' ? route.gate : p.node,
          ),
        );
        enqueue.emit({
          type: 'checkpoint',
          context: { ...context, arrivedBy: undefined },
          currentNode: p.target,
          status: 'running',
        });
      }),
      failGoalGate: enqueueActions(({ context, enqueue }, p: NodeParams) => {
        endRun(enqueue, context, p.node, 'failed', failureOf(context, p.node));
      }),
      completeRun: enqueueActions(({ context, enqueue }, p: NodeParams) => {
        endRun(enqueue, context, p.node, 'completed');
      }),
      failRun: enqueueActions(({ context, enqueue }, p: NodeParams) => {
        endRun(enqueue, context, p.node, 'failed', failureOf(context, p.node));
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
        enqueue.emit(evt('pipeline.paused', { resume_at: p.node, ...treeOf(context) }, p.node));
        enqueue.emit({ type: 'checkpoint', context, currentNode: p.node, status: 'paused' });
      }),
      stopBranchAt: assign({ stoppedAt: (_, p: NodeParams) => p.node }),
      requestPause: assign({ pauseRequested: true }),
      // A manager loop steers its child: the next node the child runs sees the message in its context.
      steer: assign({
        values: ({ context, event }) =>
          event.type === 'STEER' ? { ...context.values, 'manager.steer': event.message } : context.values,
      }),
      pauseNow: enqueueActions(({ context, event, enqueue }) => {
        if (event.type !== 'PAUSE_NOW') return;
        const at = context.lastNode ?? '';
        const pausedFor = { reason: event.reason, message: event.message };
        enqueue.assign({ stoppedAt: at, pausedFor });
        enqueue.emit(evt('pipeline.paused', { resume_at: at, ...pausedFor, ...treeOf(context) }, at));
        enqueue.emit({ type: 'checkpoint', context, currentNode: at, status: 'paused' });
      }),
      cancelRun: enqueueActions(({ context, enqueue }) => {
        const at = context.lastNode ?? '';
        enqueue.assign({ stoppedAt: at, failure: { node: at, reason: 'cancelled' } });
        enqueue.emit(evt('pipeline.cancelled', { resume_at: at, ...treeOf(context) }, at));
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
    p: RecordParams,
  ): void {
    const recorded = p.settlement && recordedOutcome(lookup, context, p.node, p.settlement);
    if (!recorded) return;
    const { assigned, applied, raw, tree } = recorded;
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
          ...(tree?.commit ? { commit: tree.commit } : {}),
          ...(tree?.skipped ? { tree_skipped: tree.skipped } : {}),
          ...(tree?.omitted && tree.omitted.length > 0 ? { tree_omitted: tree.omitted } : {}),
        },
        p.node,
      ),
    );
  }
}

/** The failure a failing route carries; a node that routes nowhere else fails with no route out. */
function failureOf(context: PipelineMachineContext, nodeId: string): { node?: string; reason: string } {
  const route = context.route;
  return route?.kind === 'fail' || route?.kind === 'goal_gate_failed'
    ? route.failure
    : { node: nodeId, reason: `no route out of ${nodeId}` };
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
    if (status === 'completed') enqueue.emit(evt('pipeline.complete', treeOf(context), nodeId));
    else
      enqueue.emit(
        evt(
          'pipeline.error',
          { error: failure?.reason ?? 'failed', ...treeOf(context) },
          failure?.node ?? nodeId,
        ),
      );
  }
  enqueue.emit({ type: 'checkpoint', context: next, currentNode: nodeId, status });
}

/** The run's newest working-tree snapshot, for the events that say where the run stopped. */
function treeOf(context: PipelineMachineContext): { commit?: string } {
  return context.treeHead ? { commit: context.treeHead } : {};
}

export type PipelineMachine = ReturnType<typeof setupPipelineMachine>;
