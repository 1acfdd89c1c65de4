import { describe, expect, it } from 'vitest';
import {
  type CachingMeasurement,
  measureAgentCaching,
  SESSION_SCRIPT,
} from '../../../helpers/prompt-cache/measure-agent-caching.js';

/** The per-turn figures, printed so a failing run shows where the cache stopped paying. */
const table = (m: CachingMeasurement): string =>
  m.turns
    .map(
      (t) =>
        `turn ${t.turn}: input ${t.inputTokens}, read ${t.cacheReadTokens}, write ${t.cacheWriteTokens}, share ${(t.readShare * 100).toFixed(1)}%`,
    )
    .join('\n');

// The bar: an 8-turn agent session reads more than half of its input from the cache from turn 5 on.
describe('prompt caching pays in an agent session (stand-ins with the providers’ cache accounting)', () => {
  it.each([
    ['anthropic', 'claude-opus-4-6'],
    ['anthropic', 'claude-sonnet-4-6'],
    ['anthropic', 'claude-haiku-4-5'],
    ['openai', 'gpt-5.2'],
  ] as const)(
    '%s %s: from turn 5 on, every call reads more than half its input from the cache',
    async (provider, model) => {
      const cached = await measureAgentCaching({ provider, model, caching: true });
      const uncached = await measureAgentCaching({ provider, model, caching: false });
      expect(cached.turns).toHaveLength(SESSION_SCRIPT.length);
      for (const turn of cached.turns.slice(4)) expect(turn.readShare, table(cached)).toBeGreaterThan(0.5);
      // The session's prefix never changes: one system prompt (instructions) for all eight calls.
      expect(new Set(cached.systemPrompts).size).toBe(1);
      // The same work, the same input; billed far less with the cache.
      // (Not to the token: each run works in its own temporary directory, whose random name is in the prompt.)
      expect(Math.abs(cached.inputTokens - uncached.inputTokens)).toBeLessThan(uncached.inputTokens * 0.01);
      expect(uncached.cacheReadTokens).toBe(0);
      expect(uncached.billedInputTokens).toBe(uncached.inputTokens);
      expect(cached.billedInputTokens).toBeLessThan(uncached.billedInputTokens * 0.6);
      expect(cached.costUsd).toBeLessThan(uncached.costUsd);
      console.log(
        `${provider} ${model}\n${table(cached)}\nbilled input: ${cached.billedInputTokens} with, ${uncached.billedInputTokens} without`,
      );
    },
  );
});
