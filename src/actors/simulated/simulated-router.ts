import type { HandlerServices } from '../handler-types.js';

/**
 * The router a dry run uses for `llm_decide` edges and LLM fan-in ranking: deterministic, no model
 * call — it picks the first candidate (candidates come in edge-priority order).
 */
export function createSimulatedRouter(): NonNullable<HandlerServices['llmRank']> {
  return async ({ candidates }) => candidates[0];
}
