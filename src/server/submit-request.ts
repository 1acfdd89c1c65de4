import { z } from 'zod';
import { RunStatusSchema } from './run-record.js';

/** `POST /pipelines` body. Exactly one of `dot_source` and `dot_path`. */
export const SubmitRequestSchema = z
  .object({
    dot_source: z.string().min(1).optional(),
    /** Relative to one of the server's allowed directories (`--allow-dir`). */
    dot_path: z.string().min(1).optional(),
    goal: z.string().optional(),
    model: z.string().optional(),
    dry_run: z.boolean().optional(),
    auto_approve: z.boolean().optional(),
    /** A scenario object (README "Scenario files") or its JSON text. */
    scenario: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
    max_cost_usd: z.number().positive().optional(),
  })
  .strict()
  .refine((b) => (b.dot_source === undefined) !== (b.dot_path === undefined), {
    message: 'give exactly one of "dot_source" and "dot_path"',
  });
export type SubmitRequest = z.infer<typeof SubmitRequestSchema>;

export const AnswerRequestSchema = z.object({ answer: z.string() }).strict();

export const ListQuerySchema = z.object({
  status: RunStatusSchema.optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
  cursor: z.string().optional(),
});
