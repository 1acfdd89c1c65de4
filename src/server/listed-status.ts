import { z } from 'zod';
import { type RunStatus, RunStatusSchema } from './run-record.js';

/**
 * The status the API shows: the stored one, except that a running run at an open gate is `waiting`
 * (for a person, not for a model). Derived, never stored: the question's answer ends it.
 */
export const ListedStatusSchema = z.enum([...RunStatusSchema.options, 'waiting']);
export type ListedStatus = z.infer<typeof ListedStatusSchema>;

export function listedStatus(status: RunStatus, pendingQuestions: number): ListedStatus {
  return status === 'running' && pendingQuestions > 0 ? 'waiting' : status;
}
