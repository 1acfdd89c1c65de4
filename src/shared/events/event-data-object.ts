import * as z from 'zod';

/**
 * Every event's data may carry where it happened: `branch` (a node inside a parallel branch) and
 * `parent` (a node of a manager loop's child pipeline, naming the manager node). They are added by
 * the engine to whatever the emitter said, so each kind's schema admits them.
 */
export const eventTags = {
  branch: z.string().optional(),
  parent: z.string().optional(),
};

/**
 * The schema of one kind's `data`: exactly these fields plus the tags. Strict, so a field the engine
 * starts writing without saying so here fails the schema tests instead of going unnoticed.
 */
export function eventData<S extends z.ZodRawShape>(shape: S) {
  // The kind's own fields come last: a parallel branch event's `branch` is required, not a tag.
  return z.strictObject({ ...eventTags, ...shape } as Omit<typeof eventTags, keyof S> & S);
}

/** Model usage totals as the run's ledger keeps them (token counts and cost): open to new counters. */
export const usageTotals = z.record(z.string(), z.unknown());

/** One model call's token counts, in the LLM client's names (`TokenUsage`). */
export const tokenUsage = z
  .object({
    inputTokens: z.number(),
    outputTokens: z.number(),
    totalTokens: z.number(),
    reasoningTokens: z.number().optional(),
    cacheReadTokens: z.number().optional(),
    cacheWriteTokens: z.number().optional(),
    raw: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
