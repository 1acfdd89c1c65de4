import { getModelInfo } from './catalog.js';
import type { ModelInfo } from './model-info.js';
import type { TokenUsage } from './types.js';

let lastModel: string | undefined;
let lastInfo: ModelInfo | undefined;

/**
 * USD cost of one usage record at catalog prices, with cache reads and writes at their own rates; undefined when
 * the model or its prices are unknown.
 */
export function estimateCost(model: string, usage: TokenUsage): number | undefined {
  // The catalog is fixed and a caller (an agent session) asks about the same model call after call.
  if (model !== lastModel) {
    lastModel = model;
    lastInfo = getModelInfo(model);
  }
  const info = lastInfo;
  if (info?.inputCostPerMillion === undefined || info.outputCostPerMillion === undefined) return undefined;
  const cacheRead = usage.cacheReadTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  const uncached = Math.max(0, usage.inputTokens - cacheRead - cacheWrite);
  const cost =
    uncached * info.inputCostPerMillion +
    cacheRead * (info.cacheReadCostPerMillion ?? info.inputCostPerMillion) +
    cacheWrite * (info.cacheWriteCostPerMillion ?? info.inputCostPerMillion) +
    usage.outputTokens * info.outputCostPerMillion;
  return cost / 1_000_000;
}
