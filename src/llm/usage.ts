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
  // Unknown + unknown stays unknown; otherwise unknown counts as zero (public specification).
  if (a === undefined && b === undefined) return undefined;
  return (a ?? 0) + (b ?? 0);
}

/** Sums usage records (the seeds' `usage1 + usage2`). `raw` is dropped: it describes one response. */
export function addUsage(...usages: readonly TokenUsage[]): TokenUsage {
  let total = createUsage();
  for (const usage of usages) {
    const reasoningTokens = addOptional(total.reasoningTokens, usage.reasoningTokens);
    const cacheReadTokens = addOptional(total.cacheReadTokens, usage.cacheReadTokens);
    const cacheWriteTokens = addOptional(total.cacheWriteTokens, usage.cacheWriteTokens);
    total = createUsage({
      inputTokens: total.inputTokens + usage.inputTokens,
      outputTokens: total.outputTokens + usage.outputTokens,
      totalTokens: total.totalTokens + usage.totalTokens,
      ...(reasoningTokens !== undefined ? { reasoningTokens } : {}),
      ...(cacheReadTokens !== undefined ? { cacheReadTokens } : {}),
      ...(cacheWriteTokens !== undefined ? { cacheWriteTokens } : {}),
    });
  }
  return total;
}
