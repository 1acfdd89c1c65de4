import { describe, expect, it } from 'vitest';
import { AnthropicPromptCache, CACHE_TTL_MS, minimumCacheableTokens } from './anthropic-prompt-cache.js';
import { OpenAIPromptCache } from './openai-prompt-cache.js';
import { countTokens } from './stand-in-tokenizer.js';

// The stand-ins are what the caching figures rest on: their rules are tested here against the documented
// behaviour, with prompts of known length (`words(n)` is n tokens; every Anthropic block adds 3 of framing).
const words = (n: number, word = 'word') => Array.from({ length: n }, () => word).join(' ');
const EPHEMERAL = { type: 'ephemeral' };

describe('the stand-in tokenizer', () => {
  it.each([
    ['word word word', 3],
    ['Hello, world!', 4],
    ['slugify', 2],
    ['{"a": 12345}', 6],
    ['', 0],
  ])('%j is %i tokens', (text, tokens) => expect(countTokens(text)).toBe(tokens));
});

describe('Anthropic prompt caching (stand-in)', () => {
  /** A request: one system block of `system` tokens, then user messages of `turns[i]` tokens each. */
  function request(model: string, system: number, turns: number[], breakpoints: number[]) {
    return {
      model,
      system: [{ type: 'text', text: words(system), cache_control: EPHEMERAL }],
      messages: turns.map((n, i) => ({
        role: i % 2 === 0 ? 'user' : 'assistant',
        content: [
          {
            type: 'text',
            text: words(n, String.fromCharCode(97 + (i % 26)).repeat(3)),
            ...(breakpoints.includes(i) ? { cache_control: EPHEMERAL } : {}),
          },
        ],
      })),
    };
  }

  it.each([
    ['claude-opus-4-6', 4096],
    ['claude-sonnet-4-6', 2048],
    ['claude-sonnet-4-5-20250929', 1024],
    ['claude-haiku-4-5', 4096],
    ['claude-3-haiku-20240307', 2048],
  ])('%s caches prefixes of at least %i tokens', (model, tokens) => {
    expect(minimumCacheableTokens(model)).toBe(tokens);
  });

  it('a prefix under the minimum is not cached: all input, then all input again', () => {
    const cache = new AnthropicPromptCache();
    const body = request('claude-sonnet-4-5', 1000, [10], []);
    const usage = { input_tokens: 1003 + 13, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    expect(cache.account(body)).toEqual(usage);
    expect(cache.account(body)).toEqual(usage);
  });

  it('writes at the breakpoints, reads the longest cached prefix, bills the rest as input', () => {
    const cache = new AnthropicPromptCache();
    expect(cache.account(request('claude-sonnet-4-5', 2000, [100], [0]))).toEqual({
      input_tokens: 0,
      cache_creation_input_tokens: 2003 + 103,
      cache_read_input_tokens: 0,
    });
    // The next turn repeats that prefix and adds two messages; its last user message is a new breakpoint.
    expect(cache.account(request('claude-sonnet-4-5', 2000, [100, 50, 20], [0, 2]))).toEqual({
      input_tokens: 0,
      cache_creation_input_tokens: 53 + 23,
      cache_read_input_tokens: 2106,
    });
  });

  it('a changed byte before a breakpoint misses it; the earlier, unchanged breakpoint still hits', () => {
    const cache = new AnthropicPromptCache();
    cache.account(request('claude-sonnet-4-5', 2000, [100], [0]));
    const changed = request('claude-sonnet-4-5', 2000, [100], [0]);
    (changed.messages[0]!.content[0] as { text: string }).text += ' now';
    expect(cache.account(changed)).toMatchObject({
      cache_read_input_tokens: 2003,
      cache_creation_input_tokens: 104,
    });
  });

  it('finds a cached prefix up to 20 blocks before a breakpoint, not further (then only the system’s)', () => {
    const turns = (n: number) => Array.from({ length: n }, () => 5);
    const near = new AnthropicPromptCache();
    near.account(request('claude-sonnet-4-5', 2000, turns(1), [0]));
    expect(near.account(request('claude-sonnet-4-5', 2000, turns(20), [19])).cache_read_input_tokens).toBe(
      2011,
    );
    const far = new AnthropicPromptCache();
    far.account(request('claude-sonnet-4-5', 2000, turns(1), [0]));
    expect(far.account(request('claude-sonnet-4-5', 2000, turns(21), [20])).cache_read_input_tokens).toBe(
      2003,
    );
  });

  it('forgets an entry 5 minutes after its last use, and keeps models apart', () => {
    let now = 0;
    const cache = new AnthropicPromptCache(() => now);
    const body = request('claude-sonnet-4-5', 2000, [10], [0]);
    cache.account(body);
    now += CACHE_TTL_MS - 1;
    expect(cache.account(body).cache_read_input_tokens).toBe(2016);
    now += CACHE_TTL_MS - 1; // refreshed by that read
    expect(cache.account(body).cache_read_input_tokens).toBe(2016);
    now += CACHE_TTL_MS;
    expect(cache.account(body).cache_read_input_tokens).toBe(0);
    expect(cache.account({ ...body, model: 'claude-opus-4-1' }).cache_read_input_tokens).toBe(0);
  });
});

describe('OpenAI automatic prompt caching (stand-in)', () => {
  it.each([
    ['a prompt under 1,024 tokens is never cached', words(1000), words(1000), 0],
    ['an exact repeat reads whole 128-token steps from 1,024', words(1500), words(1500), 1408],
    [
      'a repeat that differs at token 1,100 reads the first 1,024',
      words(1500),
      `${words(1099)} other ${words(400)}`,
      1024,
    ],
    ['a prompt that differs at its start reads nothing', words(1500), `other ${words(1499)}`, 0],
  ])('%s', (_name, first, second, cached) => {
    const cache = new OpenAIPromptCache();
    expect(cache.account('gpt-5.2', first).cached_tokens).toBe(0);
    expect(cache.account('gpt-5.2', second)).toEqual({
      input_tokens: countTokens(second),
      cached_tokens: cached,
    });
  });
});
