import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LLMClient } from '../../src/llm/client.js';
import { loadDotEnv, parseDotEnv, readLLMEnvConfig } from '../../src/llm/env-config.js';
import { ConfigurationError } from '../../src/llm/errors/configuration-error.js';
import { llmEnvStatus, noProviderMessage } from '../../src/llm/llm-env-status.js';
import { Message } from '../../src/llm/message.js';
import { ScriptedAdapter } from '../../src/llm/testing/scripted-adapter.js';

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

  it('fails at construction without any provider, naming every variable', () => {
    const error = (() => {
      try {
        LLMClient.fromEnv({ env: {}, dotenv: false });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigurationError);
    for (const variable of [
      'ANTHROPIC_API_KEY',
      'OPENAI_API_KEY',
      'GEMINI_API_KEY',
      'GOOGLE_API_KEY',
      'OPENAI_COMPATIBLE_BASE_URL',
    ])
      expect((error as Error).message).toContain(variable);
  });

  it('registers only the providers whose key is set', async () => {
    const client = LLMClient.fromEnv({ env: { OPENAI_API_KEY: 'o', GOOGLE_API_KEY: 'g' }, dotenv: false });
    expect(client.adapters.map((a) => a.name)).toEqual(['openai', 'gemini']);
    const error = await client
      .complete({ model: 'claude-haiku-4-5', messages: [Message.user('x')] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toContain('"anthropic", which is not configured');
  });

  it('counts an OpenAI-compatible server, and extra adapters, as configured', () => {
    const local = LLMClient.fromEnv({
      env: { OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:1/v1' },
      dotenv: false,
    });
    expect(local.adapters.map((a) => a.name)).toEqual(['openai-compatible']);
    const extra = new ScriptedAdapter({ turns: [] });
    expect(LLMClient.fromEnv({ env: {}, dotenv: false, extraAdapters: [extra] }).adapters).toEqual([extra]);
  });

  it('reads keys from .env too', () => {
    const dir = mkdtempSync(join(tmpdir(), 'attractor-env-'));
    try {
      writeFileSync(join(dir, '.env'), 'ANTHROPIC_API_KEY=from-file\n');
      expect(LLMClient.fromEnv({ env: {}, dotenv: dir }).adapters.map((a) => a.name)).toEqual(['anthropic']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('puts providers with a key first, making the first one the default', () => {
    const client = LLMClient.fromEnv({ env: { GEMINI_API_KEY: 'g' }, dotenv: false });
    expect(client.defaultProvider).toBe('gemini');
  });
});

describe('llmEnvStatus', () => {
  it('says which providers are configured and by which variables (for a pre-run check)', () => {
    const statuses = llmEnvStatus({ env: { GOOGLE_API_KEY: 'g' }, dotenv: false });
    expect(statuses).toEqual([
      { provider: 'anthropic', configured: false, variables: ['ANTHROPIC_API_KEY'] },
      { provider: 'openai', configured: false, variables: ['OPENAI_API_KEY'] },
      { provider: 'gemini', configured: true, variables: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'] },
      { provider: 'openai-compatible', configured: false, variables: ['OPENAI_COMPATIBLE_BASE_URL'] },
    ]);
    expect(noProviderMessage(statuses)).toMatch(/^No LLM provider is configured\. Set at least one of /);
  });
});
