import * as z from 'zod';
import { ListedStatusSchema } from './listed-status.js';

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
    /** A scenario object (docs/guides/pipelines.md, "Scenario files") or its JSON text. */
    scenario: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
    max_cost_usd: z.number().positive().optional(),
    /** Values of the pipeline's declared parameters (graph attribute `vars`), as `--set` gives them. */
    vars: z.record(z.string(), z.string()).optional(),
    /**
     * Where the run's tool commands and agents work, on whichever machine executes it: an absolute path
     * inside one of that process's `--allow-workdir` folders (checked there, symlinks resolved).
     */
    working_dir: z
      .string()
      .min(1)
      .max(4096)
      .refine((p) => p.startsWith('/'), {
        message: 'working_dir must be an absolute path (starting with "/")',
      })
      .refine((p) => !p.includes('\0'), { message: 'working_dir must not contain a NUL character' })
      .optional(),
  })
  .strict()
  .refine((b) => (b.dot_source === undefined) !== (b.dot_path === undefined), {
    message: 'give exactly one of "dot_source" and "dot_path"',
  });
export type SubmitRequest = z.infer<typeof SubmitRequestSchema>;

export const AnswerRequestSchema = z.object({ answer: z.string() }).strict();

export const ListQuerySchema = z.object({
  status: ListedStatusSchema.optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
  cursor: z.string().optional(),
});

/** `POST /pipelines/{id}/fork` body: the node to start at, and context values to change first. */
export const ForkRequestSchema = z
  .object({
    from_node: z.string().min(1),
    set: z
      .record(z.string().regex(/^[A-Za-z_][\w.-]*$/, 'a parameter name or context key'), z.string())
      .optional(),
  })
  .strict();
