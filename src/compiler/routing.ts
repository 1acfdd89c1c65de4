/**
 * Routing semantics the engine runs after every node: edge selection, failure routing, goal gates and
 * retry backoff. Pure functions over the IR; the machine in machines/ only calls them.
 */
export {
  checkGoalGates,
  type GoalGateInput,
  type GoalGateResult,
  goalGateRetryTarget,
} from './routing/check-goal-gates.js';
export { type NextStep, type NextStepInput, nextStep, type RoutingStep } from './routing/next-step.js';
export { maxRetriesFor, retryPresetDelayMs } from './routing/retry-delay.js';
export { type FailureRoute, type FailureRoutingInput, routeFailure } from './routing/route-failure.js';
export {
  type EdgeSelectionInput,
  type EdgeSelectionStep,
  llmDecideCandidates,
  routerCandidates,
  selectEdge,
  selectEdgeStep,
} from './routing/select-edge.js';
export { maxVisitsFor, visitCount, visitCountKey, visitLimitFailure } from './routing/visit-limit.js';
