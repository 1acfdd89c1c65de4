import { z } from 'zod';

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

const UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
};

/** `10MB`, `500m`, `2048` → bytes; undefined when it is not a size. */
export function parseByteSize(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = match ? UNITS[(match[2] ?? '').toLowerCase()] : undefined;
  if (!match || unit === undefined) return undefined;
  const bytes = Math.floor(Number(match[1]) * unit);
  return bytes > 0 ? bytes : undefined;
}
