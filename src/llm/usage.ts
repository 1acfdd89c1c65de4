import type { TokenUsage } from './types.js';

/** Builds a usage record; `totalTokens` is input + output unless given. */
export function createUsage(fields: Partial<TokenUsage> = {}): TokenUsage {
  const inputTokens = fields.inputTokens ?? 0;
  const outputTokens = fields.outputTokens ?? 0;
  const usage: TokenUsage = {
    inputTokens,
    outputTokens,
    totalTokens: fields.totalTokens ?? inputTokens + outputTokens,
  };
  if (fields.reasoningTokens !== undefined) usage.reasoningTokens = fields.reasoningTokens;
  if (fields.cacheReadTokens !== undefined) usage.cacheReadTokens = fields.cacheReadTokens;
  if (fields.cacheWriteTokens !== undefined) usage.cacheWriteTokens = fields.cacheWriteTokens;
  if (fields.raw !== undefined) usage.raw = fields.raw;
  return usage;
}

function addOptional(a: number | undefined, b: number | undefined): number | undefined {
  // Unknown + unknown stays unknown; otherwise unknown counts as zero.
  if (a === undefined && b === undefined) return undefined;
  return (a ?? 0) + (b ?? 0);
}

/** Sums usage records (`usage1 + usage2`). `raw` is dropped: it describes one response. */
export function addUsage(...usages: readonly TokenUsage[]): TokenUsage {
  // Summed field by field into one new record: sessions add every call's usage to their totals.
  let inputTokens = 0;
  let outputTokens = 0;
  let totalTokens = 0;
  let reasoningTokens: number | undefined;
  let cacheReadTokens: number | undefined;
  let cacheWriteTokens: number | undefined;
  for (const usage of usages) {
    inputTokens += usage.inputTokens;
    outputTokens += usage.outputTokens;
    totalTokens += usage.totalTokens;
    reasoningTokens = addOptional(reasoningTokens, usage.reasoningTokens);
    cacheReadTokens = addOptional(cacheReadTokens, usage.cacheReadTokens);
    cacheWriteTokens = addOptional(cacheWriteTokens, usage.cacheWriteTokens);
  }
  const total: TokenUsage = { inputTokens, outputTokens, totalTokens };
  if (reasoningTokens !== undefined) total.reasoningTokens = reasoningTokens;
  if (cacheReadTokens !== undefined) total.cacheReadTokens = cacheReadTokens;
  if (cacheWriteTokens !== undefined) total.cacheWriteTokens = cacheWriteTokens;
  return total;
}
