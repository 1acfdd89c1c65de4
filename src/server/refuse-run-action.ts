import { type RunAction, type RunActionFacts, runActionRefusal } from '../shared/run-actions.js';
import { ApiError } from './api-error.js';

/** A 409 naming the run and why, when the one rule of run actions refuses `action` (decision 0400). */
export function refuseRunAction(id: string, action: RunAction, facts: RunActionFacts): void {
  const refusal = runActionRefusal(action, facts);
  if (refusal) throw new ApiError(409, refusal.code, `cannot ${action} run ${id}: ${refusal.reason}`);
}
