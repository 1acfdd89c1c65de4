import * as z from 'zod';

/**
 * What a snapshot may cost (decision 0331). A file over `maxFileBytes` is left out of the snapshot (one
 * warning names it); new objects over `budgetBytes`, or a tree of more than `maxFiles` files, skip the
 * snapshot (the checkpoint says so).
 */
export const TreeLimitsSchema = z.object({
  maxFileBytes: z
    .number()
    .int()
    .positive()
    .default(10 * 1024 * 1024),
  budgetBytes: z
    .number()
    .int()
    .positive()
    .default(500 * 1024 * 1024),
  maxFiles: z.number().int().positive().default(100_000),
});
export type TreeLimits = z.infer<typeof TreeLimitsSchema>;

export const DEFAULT_TREE_LIMITS: TreeLimits = TreeLimitsSchema.parse({});
