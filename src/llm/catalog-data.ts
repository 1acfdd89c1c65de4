import { definedFields } from '../shared/defined-fields.js';
import type { ModelInfo } from './model-info.js';

type Entry = Pick<ModelInfo, 'id' | 'provider' | 'displayName' | 'contextWindow' | 'maxOutputTokens'> &
  Partial<ModelInfo>;

const K = 1000;

/**
 * When the prices below were entered from the providers' price pages. Nobody has re-checked them since; bump
 * this only after comparing every price again.
 */
export const PRICES_AS_OF = '2026-11-22';

/** Anthropic prices cache reads at 0.1× and 5-minute cache writes at 1.25× the input price. */
function anthropicPrices(input: number, output: number): Partial<ModelInfo> {
  return {
    pricesAsOf: PRICES_AS_OF,
    inputCostPerMillion: input,
    outputCostPerMillion: output,
    cacheReadCostPerMillion: input * 0.1,
    cacheWriteCostPerMillion: input * 1.25,
  };
}

function prices(input: number, output: number, cacheRead?: number): Partial<ModelInfo> {
  return {
    pricesAsOf: PRICES_AS_OF,
    inputCostPerMillion: input,
    outputCostPerMillion: output,
    ...definedFields({ cacheReadCostPerMillion: cacheRead }),
  };
}

const claude = {
  provider: 'anthropic',
  contextWindow: 200 * K,
  supportsVision: true,
  supportsReasoning: true,
};
const gpt5 = {
  provider: 'openai',
  contextWindow: 400 * K,
  maxOutputTokens: 128 * K,
  supportsVision: true,
  supportsReasoning: true,
};
/** The GPT-5.2 family's context window: 1,047,576 tokens. */
const gpt52 = { ...gpt5, contextWindow: 1_047_576 };
const gemini = {
  provider: 'gemini',
  contextWindow: 1_048_576,
  maxOutputTokens: 65_536,
  supportsVision: true,
  supportsReasoning: true,
};

/**
 * The advisory model catalog: (February 2026) first, in its order (the first entry of a provider
 * is its "latest" for getLatestModel), then models the installed SDKs' model-name types list. Unknown model
 * strings still pass through to the provider; this only feeds aliases, limits, capabilities and cost.
 */
const ENTRIES: Entry[] = [
  {
    ...claude,
    id: 'claude-opus-4-6',
    displayName: 'Claude Opus 4.6',
    maxOutputTokens: 128 * K,
    ...anthropicPrices(5, 25),
    aliases: ['opus', 'claude-opus'],
  },
  {
    ...claude,
    id: 'claude-sonnet-4-6',
    displayName: 'Claude Sonnet 4.6',
    maxOutputTokens: 64 * K,
    ...anthropicPrices(3, 15),
    aliases: ['sonnet', 'claude-sonnet'],
  },
  {
    ...claude,
    id: 'claude-opus-4-5',
    displayName: 'Claude Opus 4.5',
    maxOutputTokens: 64 * K,
    ...anthropicPrices(5, 25),
    aliases: ['claude-opus-4-5-20251101'],
  },
  {
    ...claude,
    id: 'claude-sonnet-4-5',
    displayName: 'Claude Sonnet 4.5',
    maxOutputTokens: 64 * K,
    ...anthropicPrices(3, 15),
    aliases: ['claude-sonnet-4-5-20250929'],
    deprecated: 'claude-sonnet-4-5 reaches end-of-life on November 30th, 2026; migrate to claude-sonnet-4-6.',
  },
  {
    ...claude,
    id: 'claude-haiku-4-5',
    displayName: 'Claude Haiku 4.5',
    maxOutputTokens: 64 * K,
    ...anthropicPrices(1, 5),
    aliases: ['haiku', 'claude-haiku', 'claude-haiku-4-5-20251001'],
  },
  {
    ...gpt52,
    id: 'gpt-5.2',
    displayName: 'GPT-5.2',
    ...prices(1.75, 14, 0.175),
    aliases: ['gpt5', 'gpt-5.2-2025-12-11'],
  },
  { ...gpt52, id: 'gpt-5.2-mini', displayName: 'GPT-5.2 mini', aliases: ['gpt5-mini'] },
  { ...gpt52, id: 'gpt-5.2-codex', displayName: 'GPT-5.2 Codex', aliases: ['gpt-codex'] },
  {
    provider: 'openai',
    id: 'codex-mini-latest',
    displayName: 'Codex mini',
    contextWindow: 128 * K,
    maxOutputTokens: 65_536,
    supportsReasoning: true,
    ...prices(1.5, 6, 0.375),
    aliases: ['codex-mini'],
  },
  {
    provider: 'openai',
    id: 'gpt-4.1',
    displayName: 'GPT-4.1',
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    supportsVision: true,
    ...prices(2, 8, 0.5),
    aliases: ['gpt4.1', 'gpt-4.1-2025-04-14'],
  },
  {
    provider: 'openai',
    id: 'o3',
    displayName: 'o3',
    contextWindow: 200 * K,
    maxOutputTokens: 100 * K,
    supportsVision: true,
    supportsReasoning: true,
    ...prices(2, 8, 0.5),
    aliases: ['openai-o3', 'o3-2025-04-16'],
  },
  {
    provider: 'openai',
    id: 'o4-mini',
    displayName: 'o4-mini',
    contextWindow: 200 * K,
    maxOutputTokens: 100 * K,
    supportsVision: true,
    supportsReasoning: true,
    ...prices(1.1, 4.4, 0.275),
    aliases: ['openai-o4-mini', 'o4-mini-2025-04-16'],
  },
  {
    ...gemini,
    id: 'gemini-3.1-pro-preview',
    displayName: 'Gemini 3.1 Pro (preview)',
    aliases: ['gemini-3.1-pro'],
  },
  {
    ...gemini,
    id: 'gemini-3-pro-preview',
    displayName: 'Gemini 3 Pro (preview)',
    aliases: ['gemini-pro', 'gemini-3-pro'],
  },
  {
    ...gemini,
    id: 'gemini-3-flash-preview',
    displayName: 'Gemini 3 Flash (preview)',
    aliases: ['gemini-flash', 'gemini-3-flash'],
  },
  { ...gemini, id: 'gemini-2.5-pro', displayName: 'Gemini 2.5 Pro', ...prices(1.25, 10, 0.31), aliases: [] },
  {
    ...gemini,
    id: 'gemini-2.5-flash',
    displayName: 'Gemini 2.5 Flash',
    ...prices(0.3, 2.5, 0.075),
    aliases: [],
  },
  // Listed by the installed SDKs' model-name types; limits copied from the family, prices unknown.
  ...(
    [
      'claude-opus-5-5',
      'claude-sonnet-5-5',
      'claude-haiku-5-5',
      'claude-opus-5',
      'claude-sonnet-5',
      'claude-opus-4-8',
      'claude-opus-4-7',
    ] as const
  ).map((id): Entry => ({ ...claude, id, displayName: id, maxOutputTokens: 64 * K, unverified: true })),
  {
    ...claude,
    id: 'claude-mythos-preview',
    displayName: 'claude-mythos-preview',
    maxOutputTokens: 64 * K,
    unverified: true,
    deprecated: 'claude-mythos-preview reaches end-of-life on June 30th, 2026.',
  },
  ...(
    [
      'gpt-5.4',
      'gpt-5.4-mini',
      'gpt-5.4-nano',
      'gpt-5.1',
      'gpt-5.1-codex',
      'gpt-5',
      'gpt-5-mini',
      'gpt-5-nano',
      'gpt-5-codex',
    ] as const
  ).map((id): Entry => ({ ...gpt5, id, displayName: id, unverified: true })),
  {
    provider: 'openai',
    id: 'gpt-4o',
    displayName: 'GPT-4o',
    contextWindow: 128 * K,
    maxOutputTokens: 16_384,
    supportsVision: true,
    ...prices(2.5, 10, 1.25),
    aliases: [],
  },
  {
    provider: 'openai',
    id: 'gpt-4o-mini',
    displayName: 'GPT-4o mini',
    contextWindow: 128 * K,
    maxOutputTokens: 16_384,
    supportsVision: true,
    ...prices(0.15, 0.6, 0.075),
    aliases: [],
  },
  {
    provider: 'gemini',
    id: 'gemini-2.0-flash',
    displayName: 'Gemini 2.0 Flash',
    contextWindow: 1_048_576,
    maxOutputTokens: 8192,
    supportsVision: true,
    ...prices(0.1, 0.4, 0.025),
    aliases: ['gemini-2.0-flash-001'],
  },
];

export const MODEL_CATALOG: readonly ModelInfo[] = Object.freeze(
  ENTRIES.map((entry) => ({
    supportsTools: true,
    supportsStreaming: true,
    supportsVision: false,
    supportsReasoning: false,
    aliases: [],
    ...entry,
  })),
);
