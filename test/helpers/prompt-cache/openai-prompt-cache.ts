import { createHash } from 'node:crypto';
import { tokenEnds } from './stand-in-tokenizer.js';

/**
 * OpenAI's automatic prompt caching, as its documentation describes it, for a local stand-in server: no
 * markers; a prompt of at least 1,024 tokens is cached by prefix, and a later prompt starting with the same
 * tokens reads the longest cached prefix, counted in steps of 128 tokens from 1,024 (1,024, 1,152, 1,280, …)
 * and reported as `cached_tokens` (`input_tokens_details` in the Responses API, `prompt_tokens_details` in
 * Chat Completions), which are part of the input tokens. Entries expire after 5 minutes without use (the
 * documentation says 5 to 10; 1 hour at most).
 *
 * The prompt is serialised in a fixed order: the tools (as sent), the instructions, then each input item;
 * anything that changes in it (a reordered tool, a timestamp in the instructions) changes every prefix after
 * it. Tokens come from the stand-in tokenizer (stand-in-tokenizer.ts).
 */
export const OPENAI_MIN_CACHED_TOKENS = 1024;
export const OPENAI_CACHE_INCREMENT = 128;
const CACHE_TTL_MS = 5 * 60_000;

type Json = Record<string, unknown>;

/** The Responses API request as the prompt the model reads, in a stable order. */
export function responsesPromptText(body: Json): string {
  const parts = [
    JSON.stringify(body['tools'] ?? []),
    typeof body['instructions'] === 'string' ? body['instructions'] : '',
    ...((body['input'] as unknown[] | undefined) ?? []).map((item) =>
      typeof item === 'string' ? item : JSON.stringify(item),
    ),
  ];
  return parts.join('\n');
}

export interface OpenAICacheUsage {
  /** Every prompt token, cached or not. */
  input_tokens: number;
  cached_tokens: number;
}

/** The cache of one (stand-in) OpenAI organisation. */
export class OpenAIPromptCache {
  readonly #entries = new Map<string, number>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Applies one prompt: reads the longest cached prefix, then caches every 128-token step of this one. */
  account(model: string, prompt: string): OpenAICacheUsage {
    const now = this.#now();
    const ends = tokenEnds(prompt);
    const steps: Array<{ tokens: number; hash: string }> = [];
    if (ends.length >= OPENAI_MIN_CACHED_TOKENS) {
      const hash = createHash('sha256').update(model).update('\u0000');
      let hashedChars = 0;
      for (let tokens = OPENAI_MIN_CACHED_TOKENS; tokens <= ends.length; tokens += OPENAI_CACHE_INCREMENT) {
        const end = ends[tokens - 1]!;
        hash.update(prompt.slice(hashedChars, end));
        hashedChars = end;
        steps.push({ tokens, hash: hash.copy().digest('hex') });
      }
    }
    let cached = 0;
    for (const step of steps) {
      const expires = this.#entries.get(step.hash);
      if (expires !== undefined && expires > now) cached = step.tokens;
    }
    for (const step of steps) this.#entries.set(step.hash, now + CACHE_TTL_MS);
    return { input_tokens: ends.length, cached_tokens: cached };
  }
}
