import * as z from 'zod';
import type { TokenUsage } from '../../llm/index.js';

/** Usage summed over calls, as written to status.json, checkpoints and events (snake_case, like the files). */
export const UsageTotalsSchema = z.object({
  calls: z.number().int().nonnegative(),
  input_tokens: z.number().nonnegative(),
  output_tokens: z.number().nonnegative(),
  total_tokens: z.number().nonnegative(),
  cache_read_tokens: z.number().nonnegative(),
  cache_write_tokens: z.number().nonnegative(),
  reasoning_tokens: z.number().nonnegative(),
  /** At catalog prices; calls of models without prices count 0 (see `unpriced_calls`). */
  cost_usd: z.number().nonnegative(),
  unpriced_calls: z.number().int().nonnegative(),
});
export type UsageTotals = z.infer<typeof UsageTotalsSchema>;

export function emptyTotals(): UsageTotals {
  return {
    calls: 0,
    input_tokens: 0,
    output_tokens: 0,
    total_tokens: 0,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    cost_usd: 0,
    unpriced_calls: 0,
  };
}

/** Adds one call's usage and cost (undefined when the catalog has no price for its model). */
export function addCall(totals: UsageTotals, usage: TokenUsage, costUsd: number | undefined): UsageTotals {
  return {
    calls: totals.calls + 1,
    input_tokens: totals.input_tokens + usage.inputTokens,
    output_tokens: totals.output_tokens + usage.outputTokens,
    total_tokens: totals.total_tokens + usage.totalTokens,
    cache_read_tokens: totals.cache_read_tokens + (usage.cacheReadTokens ?? 0),
    cache_write_tokens: totals.cache_write_tokens + (usage.cacheWriteTokens ?? 0),
    reasoning_tokens: totals.reasoning_tokens + (usage.reasoningTokens ?? 0),
    cost_usd: totals.cost_usd + (costUsd ?? 0),
    unpriced_calls: totals.unpriced_calls + (costUsd === undefined ? 1 : 0),
  };
}

/** `$0.0123`: cents are too coarse for a few calls, more digits are noise. */
export function formatUsd(value: number): string {
  return `$${value < 1 ? value.toFixed(4) : value.toFixed(2)}`;
}
