import type { z } from 'zod';
import { type RunStatus, RunStatusSchema } from '../shared/run-view-json.js';

/**
 * The status the API shows: the stored one, except that a running run at an open gate is `waiting`
 * (for a person, not for a model). On the file store it is derived, never stored: the question's answer
 * ends it; a PostgreSQL worker releasing a run at a gate stores it.
 */
// The stored statuses already include `waiting` (a worker's run released at a gate, on PostgreSQL).
export const ListedStatusSchema = RunStatusSchema;
export type ListedStatus = z.infer<typeof ListedStatusSchema>;

export function listedStatus(status: RunStatus, pendingQuestions: number): ListedStatus {
  return status === 'running' && pendingQuestions > 0 ? 'waiting' : status;
}
