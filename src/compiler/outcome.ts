import * as z from 'zod';
import type { DeepReadonly } from '../shared/deep-readonly.js';

/** The five stage statuses. */
export const StageStatusSchema = z.enum(['success', 'partial_success', 'retry', 'fail', 'skipped']);
export type StageStatus = z.infer<typeof StageStatusSchema>;

/** What a handler returns. `status.json` is this object with `status` written as `outcome`. */
export const OutcomeSchema = z.object({
  status: StageStatusSchema,
  preferred_label: z.string().optional(),
  suggested_next_ids: z.array(z.string()).optional(),
  context_updates: z.record(z.string(), z.unknown()).optional(),
  notes: z.string().optional(),
  failure_reason: z.string().optional(),
  /** Explicit routing override: bypasses edge selection. */
  next_node: z.string().optional(),
  /** Used by fan-in ranking. */
  score: z.number().optional(),
});
export type Outcome = z.infer<typeof OutcomeSchema>;
/** An outcome read where it must not be changed (the machine's context keeps it). */
export type ReadonlyOutcome = DeepReadonly<Outcome>;

/** A copy of `outcome` its new owner may change. */
export function copyOutcome(outcome: ReadonlyOutcome): Outcome {
  const { suggested_next_ids, context_updates, ...rest } = outcome;
  return {
    ...rest,
    ...(suggested_next_ids ? { suggested_next_ids: [...suggested_next_ids] } : {}),
    ...(context_updates ? { context_updates: { ...context_updates } } : {}),
  };
}

export const isSuccessStatus = (status: StageStatus): boolean =>
  status === 'success' || status === 'partial_success';
