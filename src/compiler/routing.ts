/**
 * Routing semantics the engine runs after every node: edge selection, failure routing, goal gates and
 * retry backoff. Pure functions over the IR; the machine in machines/ only calls them.
 */
export { checkGoalGates, type GoalGateInput, type GoalGateResult } from './routing/check-goal-gates.js';
export { type NextStep, type NextStepInput, nextStep, outgoingEdges } from './routing/next-step.js';
export {
  maxRetriesFor,
  RETRY_PRESET_NAMES,
  RETRY_PRESETS,
  type RetryPreset,
  resolveRetryPreset,
  retryDelayMs,
} from './routing/retry-delay.js';
export {
  type FailureRoute,
  type FailureRoutingInput,
  failureReason,
  routeFailure,
} from './routing/route-failure.js';
export {
  bestEdge,
  compareEdges,
  conditionScope,
  type EdgeSelectionInput,
  isConditional,
  llmDecideCandidates,
  matchingConditionalEdges,
  routerCandidates,
  selectEdge,
} from './routing/select-edge.js';
export { maxVisitsFor, visitCount, visitCountKey, visitLimitFailure } from './routing/visit-limit.js';
