import type { EdgeParams, JumpParams, NodeParams } from './action-params.js';
import type { PipelineMachineContext } from './machine-context.js';
import type { Route } from './route.js';

type GuardArgs = { context: PipelineMachineContext };

const routeOf = (context: PipelineMachineContext): Route | undefined => context.route;

const takesEdge = (context: PipelineMachineContext, p: EdgeParams): boolean => {
  const route = routeOf(context);
  return route?.kind === 'edge' && route.edge === p.edge;
};

const jumpsTo = (context: PipelineMachineContext, p: JumpParams, kinds: readonly Route['kind'][]) => {
  const route = routeOf(context);
  return route !== undefined && kinds.includes(route.kind) && 'target' in route && route.target === p.target;
};

/** The guards the compiled config names: pure reads of the context (and the params the chart gives). */
export const pipelineGuards = {
  stepLimitReached: ({ context }: GuardArgs) => context.steps >= context.maxSteps,
  pauseRequested: ({ context }: GuardArgs) => context.pauseRequested,
  isBranchRun: ({ context }: GuardArgs) => context.branch,
  jumpTargetIs: ({ context }: GuardArgs, p: NodeParams) => context.jumpTo === p.node,
  // The routing state's guards read the route its entry decided (`context.route`). The params also
  // carry each edge's condition, label, weight and target, for people reading the chart.
  shouldRetry: ({ context }: GuardArgs) => routeOf(context)?.kind === 'retry',
  routesToEdge: ({ context }: GuardArgs, p: EdgeParams) => takesEdge(context, p),
  // A branch's edge into a fan-in ends the branch, unless the fan-in's `enter` would not stop it there.
  endsBranchAt: ({ context }: GuardArgs, p: EdgeParams) =>
    context.branch && !context.pauseRequested && context.steps < context.maxSteps && takesEdge(context, p),
  routesToRetryTarget: ({ context }: GuardArgs, p: JumpParams) => jumpsTo(context, p, ['retry_target']),
  // `next_node` naming a node the chart draws a jump to (a parallel node's fan-in).
  jumpsTo: ({ context }: GuardArgs, p: JumpParams) => jumpsTo(context, p, ['jump']),
  // What only the run knows: `next_node` naming a node without an edge, or a retry target naming no node.
  routesToJump: ({ context }: GuardArgs) => {
    const kind = routeOf(context)?.kind;
    return kind === 'jump' || kind === 'retry_target';
  },
  routesToEnd: ({ context }: GuardArgs) => routeOf(context)?.kind === 'end',
  goalGateRetries: ({ context }: GuardArgs, p: JumpParams) => jumpsTo(context, p, ['goal_gate_retry']),
  goalGateUnsatisfied: ({ context }: GuardArgs) => routeOf(context)?.kind === 'goal_gate_failed',
};
