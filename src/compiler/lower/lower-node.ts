import { definedFields } from '../../shared/defined-fields.js';
import type { PipelineEdge, PipelineNode } from '../ir.js';
import type { NamedRef, StateConfig, TransitionConfig } from './machine-config.js';
import { backoffActorId, CONTROL_STATES, controlTarget, handlerActorId, stateTarget } from './state-keys.js';

const node = (id: string): Record<string, unknown> => ({ node: id });

/** Where every node visit starts: step limit, pause request and (in a parallel branch) fan-in stop. */
function enterState(n: PipelineNode): StateConfig {
  const always: TransitionConfig[] = [
    {
      guard: { type: 'stepLimitReached' },
      target: controlTarget(CONTROL_STATES.failed),
      actions: [{ type: 'failStepLimit', params: node(n.id) }],
    },
    {
      guard: { type: 'pauseRequested' },
      target: controlTarget(CONTROL_STATES.paused),
      actions: [{ type: 'pauseAt', params: node(n.id) }],
    },
  ];
  if (n.handler === 'parallel.fan_in') {
    // A parallel branch runs until it reaches the fan-in; the parent then continues there.
    always.push({
      guard: { type: 'isBranchRun' },
      target: controlTarget(CONTROL_STATES.branchDone),
      actions: [{ type: 'stopBranchAt', params: node(n.id) }],
    });
  }
  always.push({ target: 'run', actions: [{ type: 'startNode', params: node(n.id) }] });
  return { always };
}

/** What a drawing of the chart should show on an edge: its condition, label, weight and target. */
function edgeParams(n: PipelineNode, edge: PipelineEdge): Record<string, unknown> {
  const { condition, label, weight, loop_restart, llm_decide } = edge.attrs;
  return {
    node: n.id,
    edge: edge.index,
    target: edge.target,
    ...(condition?.trim() ? { condition: condition.trim() } : {}),
    ...(label ? { label } : {}),
    ...definedFields({ weight }),
    ...(loop_restart ? { loop_restart: true } : {}),
    ...(llm_decide ? { llm_decide: true } : {}),
  };
}

function traversal(n: PipelineNode, edge: PipelineEdge): NamedRef[] {
  const ref = { node: n.id, edge: edge.index };
  const actions: NamedRef[] = [{ type: 'traverseEdge', params: ref }];
  if (edge.attrs.loop_restart) actions.push({ type: 'restartLoop', params: ref });
  return actions;
}

function edgeTransition(n: PipelineNode, edge: PipelineEdge): TransitionConfig {
  return {
    guard: { type: 'routesToEdge', params: edgeParams(n, edge) },
    target: stateTarget(edge.target),
    actions: traversal(n, edge),
    reenter: true,
  };
}

/**
 * A parallel branch taking an edge into a fan-in node ends there: straight to the branch's final state,
 * rather than entering the fan-in to leave it at once (decision 0057). The guard passes only
 * where the fan-in's `enter` state would have stopped the branch (no step limit reached, no pause asked
 * for); otherwise the edge's own transition follows and `enter` decides, as for any node.
 */
function branchEndTransition(n: PipelineNode, edge: PipelineEdge): TransitionConfig {
  return {
    guard: { type: 'endsBranchAt', params: edgeParams(n, edge) },
    target: controlTarget(CONTROL_STATES.branchDone),
    actions: [...traversal(n, edge), { type: 'stopBranchAt', params: node(edge.target) }],
  };
}

/** The node's retry_target and fallback_retry_target that name real nodes: direct transitions. */
function retryTargets(n: PipelineNode, known: (id: string) => boolean): string[] {
  const targets: string[] = [];
  for (const raw of [n.attrs.retry_target, n.attrs.fallback_retry_target]) {
    const target = raw?.trim();
    if (target && known(target) && !targets.includes(target)) targets.push(target);
  }
  return targets;
}

function jumpTransition(guard: string, params: Record<string, unknown>, action: string): TransitionConfig {
  const target = params['target'] as string;
  return {
    guard: { type: guard, params },
    target: stateTarget(target),
    actions: [{ type: action, params }],
    reenter: true,
  };
}

/** What the lowering needs to know about the rest of the graph. */
export interface LowerContext {
  outgoing: readonly PipelineEdge[];
  /** Whether a node id exists (retry targets naming no node go through `__dispatch` and fail there). */
  known(id: string): boolean;
  /** Whether a node is a fan-in (`parallel.fan_in`): where a parallel branch stops. */
  isFanIn(id: string): boolean;
  /** Distinct goal-gate retry targets of the graph (exit nodes jump to them directly). */
  goalGateTargets: readonly string[];
  /** Whether the graph has goal gates: then a node that can end the run (a dead end) checks them too. */
  hasGoalGates?: boolean;
  /** For a parallel node: the fan-in its branches converge on, as the graph shows it (its usual jump). */
  fanIn?: string;
}

/**
 * The `route` state's transitions: retry, follow an edge, jump, end or fail. Its entry (`decideRoute`)
 * asks the routing function once, on the recorded outcome; each guard tests that decision.
 */
function routeTransitions(n: PipelineNode, lower: LowerContext): TransitionConfig[] {
  const routes: TransitionConfig[] = [
    { guard: { type: 'shouldRetry', params: node(n.id) }, target: 'backoff' },
  ];
  if (n.handler === 'exit') {
    routes.push(...goalGateRoutes(n, lower), {
      target: controlTarget(CONTROL_STATES.completed),
      actions: [{ type: 'completeRun', params: node(n.id) }],
    });
    return routes;
  }
  for (const edge of lower.outgoing) {
    if (lower.isFanIn(edge.target)) routes.push(branchEndTransition(n, edge));
    routes.push(edgeTransition(n, edge));
  }
  for (const target of retryTargets(n, lower.known))
    routes.push(jumpTransition('routesToRetryTarget', { node: n.id, target }, 'jumpToRetryTarget'));
  // A parallel node continues at the fan-in its branches reached (`next_node`): drawn when the graph
  // tells which one it is; where they stopped elsewhere at run time, `__dispatch` takes over.
  if (lower.fanIn)
    routes.push(jumpTransition('jumpsTo', { node: n.id, target: lower.fanIn }, 'jumpFromNode'));
  routes.push({
    // Only what is known at run time: `next_node` from a handler, or a retry target naming no node.
    guard: { type: 'routesToJump', params: node(n.id) },
    target: controlTarget(CONTROL_STATES.dispatch),
    actions: [{ type: 'jumpFromNode', params: node(n.id) }],
  });
  // A node with no unconditional edge can end the run (a dead end): the goal gates are checked on that
  // way out exactly as at an exit (their guards hold only when the run ends here).
  if (lower.hasGoalGates && !lower.outgoing.some(isUnconditional)) routes.push(...goalGateRoutes(n, lower));
  routes.push(
    {
      guard: { type: 'routesToEnd', params: node(n.id) },
      target: controlTarget(CONTROL_STATES.completed),
      actions: [{ type: 'completeRun', params: node(n.id) }],
    },
    { target: controlTarget(CONTROL_STATES.failed), actions: [{ type: 'failRun', params: node(n.id) }] },
  );
  return routes;
}

const isUnconditional = (edge: PipelineEdge): boolean => (edge.attrs.condition ?? '').trim() === '';

/** Where the run goes when it would end at `n` with a goal gate unsatisfied: a gate's retry target, or failure. */
function goalGateRoutes(n: PipelineNode, lower: LowerContext): TransitionConfig[] {
  return [
    ...lower.goalGateTargets.map((target) =>
      jumpTransition('goalGateRetries', { node: n.id, target }, 'jumpForGoalGate'),
    ),
    {
      guard: { type: 'goalGateUnsatisfied', params: node(n.id) },
      target: controlTarget(CONTROL_STATES.failed),
      actions: [{ type: 'failGoalGate', params: node(n.id) }],
    },
  ];
}

/**
 * One compound state per node: enter → run (invoke `handler.<type>`, then record its outcome) → route
 * (decide, then go to the next node), with backoff (invoke `retryBackoff`) for retries.
 */
export function lowerNode(n: PipelineNode, lower: LowerContext): StateConfig {
  return {
    meta: { nodeId: n.id, handler: n.handler },
    initial: 'enter',
    states: {
      enter: enterState(n),
      run: {
        invoke: {
          id: handlerActorId(n.id),
          src: `handler.${n.handler}`,
          input: node(n.id),
          onDone: [{ target: 'route', actions: [{ type: 'recordOutcome', params: node(n.id) }] }],
          onError: [{ target: 'route', actions: [{ type: 'recordError', params: node(n.id) }] }],
        },
      },
      route: {
        entry: [{ type: 'decideRoute', params: node(n.id) }],
        always: routeTransitions(n, lower),
      },
      // The wait is an invoked actor rather than an `after` delay: XState persists invoked actors and
      // restarts them on restore, but not the timers of delayed transitions, so a snapshot taken
      // during the wait would restore into a state that never leaves (decision 0020).
      backoff: {
        invoke: {
          id: backoffActorId(n.id),
          src: 'retryBackoff',
          input: node(n.id),
          onDone: [{ target: 'enter' }],
          onError: [{ target: 'enter' }],
        },
      },
    },
  };
}
