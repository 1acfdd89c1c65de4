import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LLMClient } from '../../src/llm/client.js';
import { loadDotEnv, parseDotEnv, readLLMEnvConfig } from '../../src/llm/env-config.js';
import { ConfigurationError } from '../../src/llm/errors/configuration-error.js';
import { Message } from '../../src/llm/message.js';

describe('parseDotEnv', () => {
  it.each([
    ['A=1', { A: '1' }],
    ['export B=two', { B: 'two' }],
    ['C="quoted # not comment"', { C: 'quoted # not comment' }],
    ["D='single'", { D: 'single' }],
    ['E=value # comment', { E: 'value' }],
    ['F="line\\nbreak"', { F: 'line\nbreak' }],
    ['# comment\n\nG = spaced ', { G: 'spaced' }],
    ['not a line', {}],
  ])('%j', (text, expected) => {
    expect(parseDotEnv(text)).toEqual(expected);
  });
});

describe('readLLMEnvConfig', () => {
  it('reads keys and base URLs, with the Gemini and OpenAI-compatible variants', () => {
    const config = readLLMEnvConfig({
      ANTHROPIC_API_KEY: 'a',
      ANTHROPIC_BASE_URL: 'http://a',
      OPENAI_API_KEY: 'o',
      OPENAI_BASE_URL: 'http://o/v1',
      GOOGLE_API_KEY: 'g',
      GOOGLE_GEMINI_BASE_URL: 'http://g',
      OPENAI_COMPATIBLE_BASE_URL: 'http://c/v1',
      OPENAI_COMPATIBLE_API_KEY: 'c',
    });
    expect(config.anthropic).toEqual({
      apiKey: 'a',
      baseURL: 'http://a',
      apiKeyVariable: 'ANTHROPIC_API_KEY',
    });
    expect(config.openai).toMatchObject({ apiKey: 'o', baseURL: 'http://o/v1' });
    expect(config.gemini).toEqual({ apiKey: 'g', baseURL: 'http://g', apiKeyVariable: 'GOOGLE_API_KEY' });
    expect(config.openaiCompatible).toEqual({
      apiKey: 'c',
      baseURL: 'http://c/v1',
      apiKeyVariable: 'OPENAI_COMPATIBLE_API_KEY',
    });
  });

  it('prefers GEMINI_API_KEY and GEMINI_BASE_URL', () => {
    const config = readLLMEnvConfig({
      GEMINI_API_KEY: '1',
      GOOGLE_API_KEY: '2',
      GEMINI_BASE_URL: 'x',
      GOOGLE_GEMINI_BASE_URL: 'y',
    });
    expect(config.gemini).toEqual({ apiKey: '1', baseURL: 'x', apiKeyVariable: 'GEMINI_API_KEY' });
    expect(readLLMEnvConfig({}).openaiCompatible).toBeUndefined();
  });
});

describe('loadDotEnv and LLMClient.fromEnv', () => {
  it('lets the environment win over .env', () => {
    const dir = mkdtempSync(join(tmpdir(), 'attractor-env-'));
    try {
      writeFileSync(join(dir, '.env'), 'ANTHROPIC_API_KEY=from-file\nOPENAI_API_KEY=file-openai\n');
      expect(loadDotEnv(dir, { ANTHROPIC_API_KEY: 'from-env' })).toMatchObject({
        ANTHROPIC_API_KEY: 'from-env',
        OPENAI_API_KEY: 'file-openai',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('starts without any key and fails at the first call naming the variable', async () => {
    const client = LLMClient.fromEnv({ env: {}, dotenv: false });
    expect(client.adapters.map((a) => a.name)).toEqual(['anthropic', 'openai', 'gemini']);
    const error = await client
      .complete({ model: 'claude-haiku-4-5', messages: [Message.user('x')] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toContain('ANTHROPIC_API_KEY');
  });

  it('puts providers with a key first, making the first one the default', () => {
    const client = LLMClient.fromEnv({ env: { GEMINI_API_KEY: 'g' }, dotenv: false });
    expect(client.defaultProvider).toBe('gemini');
  });
});
