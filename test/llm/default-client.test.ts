import { afterEach, describe, expect, it, vi } from 'vitest';
import { LLMClient } from '../../src/llm/client.js';
import {
  generate,
  generateObject,
  getDefaultClient,
  setDefaultClient,
  stream,
} from '../../src/llm/default-client.js';
import { ConfigurationError } from '../../src/llm/errors/configuration-error.js';
import { Message } from '../../src/llm/message.js';
import { ScriptedAdapter } from '../../src/llm/testing/scripted-adapter.js';

afterEach(() => {
  setDefaultClient(undefined);
  vi.unstubAllEnvs();
});

describe('the module-level default client', () => {
  it('serves generate, stream and generateObject once set', async () => {
    const adapter = new ScriptedAdapter({ turns: ['Hi there', 'Streamed', '{"ok":true}'] });
    setDefaultClient(new LLMClient({ adapters: [adapter] }));
    expect((await generate({ model: 'm', prompt: 'x' })).text).toBe('Hi there');
    expect((await stream({ model: 'm', messages: [Message.user('x')] }).response()).text).toBe('Streamed');
    expect((await generateObject({ model: 'm', prompt: 'x', schema: { type: 'object' } })).output).toEqual({
      ok: true,
    });
    expect(adapter.calls).toHaveLength(3);
  });

  it('is created lazily from the environment, once', () => {
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-x');
    vi.stubEnv('OPENAI_API_KEY', '');
    vi.stubEnv('GEMINI_API_KEY', '');
    vi.stubEnv('GOOGLE_API_KEY', '');
    vi.stubEnv('OPENAI_COMPATIBLE_BASE_URL', '');
    const first = getDefaultClient();
    expect(first.adapters.map((a) => a.name)).toContain('anthropic');
    expect(getDefaultClient()).toBe(first);
  });

  it('fails with ConfigurationError when the environment configures no provider', () => {
    for (const name of [
      'ANTHROPIC_API_KEY',
      'OPENAI_API_KEY',
      'GEMINI_API_KEY',
      'GOOGLE_API_KEY',
      'OPENAI_COMPATIBLE_BASE_URL',
    ])
      vi.stubEnv(name, '');
    expect(() => generate({ model: 'm', prompt: 'x' })).toThrow(ConfigurationError);
  });
});
