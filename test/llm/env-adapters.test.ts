import { describe, expect, it } from 'vitest';
import { adaptersFromEnv } from '../../src/llm/env-adapters.js';

describe('adaptersFromEnv', () => {
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
});
