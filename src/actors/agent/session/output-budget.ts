import { getModelInfo } from '../../../llm/index.js';
import type { ProviderProfile } from '../profiles/provider-profile.js';

/**
 * Output tokens an agent turn asks for when neither the node nor the catalog says: enough for a whole file in
 * one `write_file` call (the Anthropic adapter's own default of 4,096 cuts such calls off).
 */
export const DEFAULT_AGENT_MAX_TOKENS = 16_384;

/** Never ask for less than this, however full the context window looks (the estimate may be pessimistic). */
export const MIN_OUTPUT_TOKENS = 1_024;

/** The input estimate is four characters a token; a real tokenizer may count up to this much more. */
const ESTIMATE_SLACK = 1.25;

/**
 * The most output tokens a turn of `model` may produce: the session's `maxTokens` (a node's `max_tokens`), else
 * the model's own limit from the catalog (or the profile's, for a model the catalog does not know), else
 * {@link DEFAULT_AGENT_MAX_TOKENS}. Pure.
 */
export function outputLimit(model: string, profile: ProviderProfile, configured?: number): number {
  if (configured !== undefined) return configured;
  if (model === profile.model && profile.maxOutputTokens !== undefined) return profile.maxOutputTokens;
  return getModelInfo(model)?.maxOutputTokens ?? profile.maxOutputTokens ?? DEFAULT_AGENT_MAX_TOKENS;
}

/**
 * What one request asks for: the limit, but no more than the context window leaves after the input (providers
 * refuse a request whose input plus `max_tokens` exceeds the window), and never under {@link MIN_OUTPUT_TOKENS}
 * unless the limit itself is lower. Pure.
 */
export function outputBudget(
  limit: number,
  contextWindow: number,
  input: { measured: number; estimated: number },
): number {
  // The provider's own count of the last request is exact; only what was appended since is a guess.
  const room = Math.floor(contextWindow - input.measured - input.estimated * ESTIMATE_SLACK);
  // `| 0`: a small integer for V8, not a heap number from the float arithmetic above; requests carrying a
  // boxed number cost the session's loop measurably (bench/agent-loop-overhead.mjs).
  return Math.min(limit, Math.max(MIN_OUTPUT_TOKENS, room)) | 0;
}
