import * as z from 'zod';
import { StageStatusSchema } from '../../compiler/outcome.js';

/** One entry of the `parallel.results` context value: what fan-in nodes and conditions read. */
export const ParallelResultSchema = z.object({
  branch_id: z.string(),
  status: StageStatusSchema,
  notes: z.string().optional(),
  failure_reason: z.string().optional(),
  score: z.number().optional(),
  /** Where the branch stopped (the fan-in node, or its last node). */
  stopped_at: z.string().optional(),
  /** The branch was stopped by the join or error policy, or by cancellation. */
  cancelled: z.boolean().optional(),
  /** The snapshot of the branch's own folder when it ended (`isolation="worktree"`): what its join merges. */
  commit: z.string().optional(),
});
export type ParallelResult = z.infer<typeof ParallelResultSchema>;

export const ParallelResultsSchema = z.array(ParallelResultSchema);
