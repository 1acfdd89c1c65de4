import type { PipelineEdge, PipelineNode } from '../ir.js';
import type { NamedRef, StateConfig, TransitionConfig } from './machine-config.js';
import { CONTROL_STATES, controlTarget, stateTarget } from './state-keys.js';

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

function edgeTransition(n: PipelineNode, edge: PipelineEdge): TransitionConfig {
  const params = { node: n.id, edge: edge.index };
  const actions: NamedRef[] = [{ type: 'traverseEdge', params }];
  if (edge.attrs.loop_restart) actions.push({ type: 'restartLoop', params });
  return {
    guard: { type: 'routesToEdge', params },
    target: stateTarget(edge.target),
    actions,
    reenter: true,
  };
}

/** After the handler: retry, follow an edge (guards delegate to routing.ts), jump, end or fail. */
function routeState(n: PipelineNode, outgoing: readonly PipelineEdge[]): StateConfig {
  const always: TransitionConfig[] = [
    { guard: { type: 'shouldRetry', params: node(n.id) }, target: 'backoff' },
  ];
  if (n.handler === 'exit') {
    always.push(
      {
        guard: { type: 'goalGateJump', params: node(n.id) },
        target: controlTarget(CONTROL_STATES.dispatch),
        actions: [{ type: 'jumpForGoalGate', params: node(n.id) }],
      },
      {
        guard: { type: 'goalGateUnsatisfied', params: node(n.id) },
        target: controlTarget(CONTROL_STATES.failed),
        actions: [{ type: 'failGoalGate', params: node(n.id) }],
      },
      {
        target: controlTarget(CONTROL_STATES.completed),
        actions: [{ type: 'completeRun', params: node(n.id) }],
      },
    );
    return { always };
  }
  for (const edge of outgoing) always.push(edgeTransition(n, edge));
  always.push(
    {
      guard: { type: 'routesToJump', params: node(n.id) },
      target: controlTarget(CONTROL_STATES.dispatch),
      actions: [{ type: 'jumpFromNode', params: node(n.id) }],
    },
    {
      guard: { type: 'routesToEnd', params: node(n.id) },
      target: controlTarget(CONTROL_STATES.completed),
      actions: [{ type: 'completeRun', params: node(n.id) }],
    },
    { target: controlTarget(CONTROL_STATES.failed), actions: [{ type: 'failRun', params: node(n.id) }] },
  );
  return { always };
}

/** One compound state per node: enter → run (invoke `handler.<type>`) → route, with backoff for retries. */
export function lowerNode(n: PipelineNode, outgoing: readonly PipelineEdge[]): StateConfig {
  return {
    meta: { nodeId: n.id, handler: n.handler },
    initial: 'enter',
    states: {
      enter: enterState(n),
      run: {
        invoke: {
          id: 'handler',
          src: `handler.${n.handler}`,
          input: node(n.id),
          onDone: { target: 'route', actions: [{ type: 'recordOutcome', params: node(n.id) }] },
          onError: { target: 'route', actions: [{ type: 'recordError', params: node(n.id) }] },
        },
      },
      route: routeState(n, outgoing),
      backoff: { after: { retryBackoff: { target: 'enter' } } },
    },
  };
}
