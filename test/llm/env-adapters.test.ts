import { afterEach, describe, expect, it, vi } from 'vitest';
import { adaptersFromEnv } from '../../src/llm/env-adapters.js';
import { ConfigurationError } from '../../src/llm/errors/configuration-error.js';
import { Message } from '../../src/llm/message.js';

describe('adaptersFromEnv', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it.each([
    { env: {}, names: ['anthropic', 'openai', 'gemini'] },
    { env: { OPENAI_API_KEY: 'k' }, names: ['openai', 'anthropic', 'gemini'] },
    {
      env: { OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:11434/v1' },
      names: ['anthropic', 'openai', 'gemini', 'openai-compatible'],
    },
  ])('registers $names for $env (keyed providers first)', ({ env, names }) => {
    expect(adaptersFromEnv({ env, dotenv: false }).map((a) => a.name)).toEqual(names);
  });

  it.each([
    ['anthropic', 'claude-sonnet-4-6'],
    ['openai', 'gpt-5.2'],
    ['gemini', 'gemini-2.5-pro'],
  ])('%s reads keys only from the given env, never from process.env', async (name, model) => {
    // Port 1 refuses at once: a leaked key would show up as a network error instead.
    for (const [key, value] of Object.entries({
      ANTHROPIC_API_KEY: 'leaked',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:1',
      OPENAI_API_KEY: 'leaked',
      OPENAI_BASE_URL: 'http://127.0.0.1:1/v1',
      GEMINI_API_KEY: 'leaked',
      GEMINI_BASE_URL: 'http://127.0.0.1:1',
    }))
      vi.stubEnv(key, value);
    const adapter = adaptersFromEnv({ env: {}, dotenv: false }).find((a) => a.name === name)!;
    const error = await adapter.complete({ model, messages: [Message.user('hi')] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
  });
});
