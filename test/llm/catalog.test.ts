import { describe, expect, it } from 'vitest';
import { getLatestModel, getModelInfo, listModels } from '../../src/llm/catalog.js';
import { detectProvider } from '../../src/llm/detect-provider.js';
import { addUsage, createUsage } from '../../src/llm/usage.js';

describe('model catalog', () => {
  it.each([
    ['opus', 'claude-opus-4-6'],
    ['claude-sonnet', 'claude-sonnet-4-6'],
    ['haiku', 'claude-haiku-4-5'],
    ['gpt-5', 'gpt-5'],
    ['gpt5', 'gpt-5.2'],
    ['gpt-codex', 'gpt-5.2-codex'],
    ['codex-mini', 'codex-mini-latest'],
    ['openai-o4-mini', 'o4-mini'],
    ['gemini-flash', 'gemini-3-flash-preview'],
    ['GEMINI-3-PRO', 'gemini-3-pro-preview'],
  ])('resolves %s to %s', (alias, id) => {
    expect(getModelInfo(alias)?.id).toBe(id);
  });

  it('returns undefined for unknown models (the catalog is advisory)', () => {
    expect(getModelInfo('nonexistent-model-xyz')).toBeUndefined();
  });

  it('lists the catalog models with their limits', () => {
    expect(getModelInfo('claude-opus-4-6')).toMatchObject({
      contextWindow: 200_000,
      maxOutputTokens: 128_000,
      supportsReasoning: true,
    });
    expect(getModelInfo('gpt-4.1')).toMatchObject({ supportsReasoning: false, supportsVision: true });
    expect(listModels('gemini').every((m) => m.provider === 'gemini')).toBe(true);
    expect(getLatestModel('anthropic')?.id).toBe('claude-opus-4-6');
    expect(getLatestModel('openai', 'reasoning')?.id).toBe('gpt-5.2');
  });

  it('knows gemini-3.1-pro-preview as the latest Gemini and GPT-5.2 at 1,047,576 tokens', () => {
    expect(getModelInfo('gemini-3.1-pro-preview')).toMatchObject({
      provider: 'gemini',
      contextWindow: 1_048_576,
    });
    expect(getLatestModel('gemini')?.id).toBe('gemini-3.1-pro-preview');
    for (const id of ['gpt-5.2', 'gpt-5.2-mini', 'gpt-5.2-codex'])
      expect(getModelInfo(id)?.contextWindow).toBe(1_047_576);
  });

  it('dates every price', () => {
    const priced = listModels().filter((m) => m.inputCostPerMillion !== undefined);
    expect(priced.length).toBeGreaterThan(5);
    for (const model of priced) expect(model.pricesAsOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('has unique ids and aliases', () => {
    const names = listModels().flatMap((m) => [m.id, ...m.aliases]);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('detectProvider', () => {
  it.each([
    ['claude-opus-4-6', 'anthropic'],
    ['gpt-4.1', 'openai'],
    ['o3', 'openai'],
    ['o4-mini', 'openai'],
    ['codex-mini-latest', 'openai'],
    ['gemini-2.5-pro', 'gemini'],
    ['sonnet', 'anthropic'],
    ['llama-3', undefined],
  ])('%s → %s', (model, provider) => {
    expect(detectProvider(model)).toBe(provider);
  });
});

describe('TokenUsage addition', () => {
  it('adds fields, keeping unknown + unknown unknown', () => {
    const a = createUsage({ inputTokens: 10, outputTokens: 2, cacheReadTokens: 4 });
    const b = createUsage({ inputTokens: 5, outputTokens: 1 });
    expect(addUsage(a, b)).toEqual({ inputTokens: 15, outputTokens: 3, totalTokens: 18, cacheReadTokens: 4 });
  });
});
