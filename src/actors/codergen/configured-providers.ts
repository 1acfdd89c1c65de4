import type { Env } from '../../llm/env-config.js';
import { type LLMEnvConfig, readLLMEnvConfig } from '../../llm/index.js';

/** What a run knows about one provider before any call: is it usable, and which variable would make it so. */
export interface ProviderStatus {
  /** The LLM client's adapter name. */
  name: 'anthropic' | 'openai' | 'gemini' | 'openai-compatible';
  configured: boolean;
  /** The variable a user sets to configure it (the key, or the base URL for an OpenAI-compatible server). */
  variable: string;
  /** The key's variable, when it is not `variable` (an OpenAI-compatible server's key is optional). */
  keyVariable?: string;
  /** Where its requests go, and the variable that said so (absent: the provider's public endpoint). */
  endpoint: { url: string; variable?: string };
}

/** The public endpoints the SDKs call when no base URL is set. */
const DEFAULT_ENDPOINTS = {
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com/v1',
  gemini: 'https://generativelanguage.googleapis.com',
} as const;

function endpointOf(
  name: keyof typeof DEFAULT_ENDPOINTS,
  baseURL: string | undefined,
  variable: string,
): ProviderStatus['endpoint'] {
  return baseURL ? { url: baseURL, variable } : { url: DEFAULT_ENDPOINTS[name] };
}

/** Providers in the order a run without any model setting picks from (first configured wins). */
export const PROVIDER_ORDER = ['anthropic', 'openai', 'gemini', 'openai-compatible'] as const;

/**
 * Which providers the environment configures. A key (or, for an OpenAI-compatible server, its base URL,
 * whose key is optional) makes a provider usable; nothing is called.
 *
 * @example
 * configuredProviders({ OPENAI_API_KEY: 'sk-…' }).find((p) => p.configured)?.name // 'openai'
 */
export function configuredProviders(env: Env): ProviderStatus[] {
  const config: LLMEnvConfig = readLLMEnvConfig(env);
  return [
    {
      name: 'anthropic',
      configured: !!config.anthropic.apiKey,
      variable: config.anthropic.apiKeyVariable,
      endpoint: endpointOf('anthropic', config.anthropic.baseURL, 'ANTHROPIC_BASE_URL'),
    },
    {
      name: 'openai',
      configured: !!config.openai.apiKey,
      variable: config.openai.apiKeyVariable,
      endpoint: endpointOf('openai', config.openai.baseURL, 'OPENAI_BASE_URL'),
    },
    {
      name: 'gemini',
      configured: !!config.gemini.apiKey,
      variable: config.gemini.apiKeyVariable,
      endpoint: endpointOf('gemini', config.gemini.baseURL, geminiBaseVariable(env)),
    },
    {
      name: 'openai-compatible',
      configured: config.openaiCompatible !== undefined,
      variable: 'OPENAI_COMPATIBLE_BASE_URL',
      keyVariable: 'OPENAI_COMPATIBLE_API_KEY',
      endpoint: {
        url: config.openaiCompatible?.baseURL ?? '(not set)',
        variable: 'OPENAI_COMPATIBLE_BASE_URL',
      },
    },
  ];
}

const geminiBaseVariable = (env: Env): string =>
  env['GEMINI_BASE_URL']?.trim() ? 'GEMINI_BASE_URL' : 'GOOGLE_GEMINI_BASE_URL';

/** `google` is the Gemini provider's other name in DOT files. */
export function canonicalProvider(name: string): string {
  const lower = name.trim().toLowerCase();
  return lower === 'google' ? 'gemini' : lower;
}
