import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../../src/llm/errors/configuration-error.js';
import { Message } from '../../../src/llm/message.js';
import type { ProviderAdapter } from '../../../src/llm/provider-adapter.js';
import { AnthropicAdapter } from '../../../src/llm/providers/anthropic/anthropic-adapter.js';
import { GeminiAdapter } from '../../../src/llm/providers/gemini/gemini-adapter.js';
import { OpenAIAdapter } from '../../../src/llm/providers/openai/openai-adapter.js';

type Env = Record<string, string | undefined>;

// An OpenAI-compatible server's key is optional (local servers need none): test/llm/providers/openai-compatible/.
describe('a missing API key: one wording for every provider, naming it and its variable(s)', () => {
  it.each([
    [
      'anthropic',
      new AnthropicAdapter({ env: {} }),
      'Anthropic API key missing: set ANTHROPIC_API_KEY (or pass apiKey).',
    ],
    [
      'openai',
      new OpenAIAdapter({ env: {} }),
      'OpenAI API key missing: set OPENAI_API_KEY (or pass apiKey).',
    ],
    [
      'gemini',
      new GeminiAdapter({ env: {} }),
      'Gemini API key missing: set GEMINI_API_KEY or GOOGLE_API_KEY (or pass apiKey).',
    ],
  ] as Array<[string, ProviderAdapter, string]>)('%s', async (_name, adapter, message) => {
    const error = await adapter
      .complete({ model: 'm', messages: [Message.user('hi')] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toBe(message);
  });
});

describe('a key set after a call failed for want of it is used by the next call', () => {
  // Port 9 (discard) refuses the connection: the second call fails, but no longer for the key.
  const baseURL = 'http://127.0.0.1:9';
  it.each([
    ['anthropic', (env: Env) => new AnthropicAdapter({ env, baseURL }), 'ANTHROPIC_API_KEY'],
    ['openai', (env: Env) => new OpenAIAdapter({ env, baseURL }), 'OPENAI_API_KEY'],
    ['gemini', (env: Env) => new GeminiAdapter({ env, baseURL }), 'GEMINI_API_KEY'],
  ] as Array<[string, (env: Env) => ProviderAdapter, string]>)('%s', async (_name, make, variable) => {
    const env: Env = {};
    const adapter = make(env);
    const call = () =>
      adapter
        .complete({ model: 'm', messages: [Message.user('hi')] }, { timeouts: { requestMs: 5_000 } })
        .catch((e: unknown) => e);
    expect(await call()).toBeInstanceOf(ConfigurationError);
    env[variable] = 'key';
    const second = await call();
    expect(second).toBeInstanceOf(Error);
    expect(second).not.toBeInstanceOf(ConfigurationError);
  });
});
