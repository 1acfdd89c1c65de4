import { type EnvAdapterOptions, environmentOf } from './env-adapters.js';
import { readLLMEnvConfig } from './env-config.js';

/** Whether one built-in provider is configured, and the variables that configure it. */
export interface ProviderEnvStatus {
  provider: 'anthropic' | 'openai' | 'gemini' | 'openai-compatible';
  configured: boolean;
  /** Any one of these configures the provider (its key; the base URL for an OpenAI-compatible server). */
  variables: string[];
}

/**
 * Which built-in providers the environment (and `.env`) configures. LLMClient.fromEnv registers exactly the
 * configured ones; a CLI can call this before a run to say which variables to set.
 */
export function llmEnvStatus(options: EnvAdapterOptions = {}): ProviderEnvStatus[] {
  const config = readLLMEnvConfig(environmentOf(options));
  return [
    {
      provider: 'anthropic',
      configured: config.anthropic.apiKey !== undefined,
      variables: ['ANTHROPIC_API_KEY'],
    },
    { provider: 'openai', configured: config.openai.apiKey !== undefined, variables: ['OPENAI_API_KEY'] },
    {
      provider: 'gemini',
      configured: config.gemini.apiKey !== undefined,
      variables: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
    },
    {
      provider: 'openai-compatible',
      configured: config.openaiCompatible !== undefined,
      variables: ['OPENAI_COMPATIBLE_BASE_URL'],
    },
  ];
}

/** The one-paragraph explanation for when no provider is configured. */
export function noProviderMessage(statuses: readonly ProviderEnvStatus[] = llmEnvStatus()): string {
  const names = statuses.map((status) => `${status.variables.join(' or ')} (${status.provider})`);
  return `No LLM provider is configured. Set at least one of ${names.join(', ')} in the environment or in a .env file in the working directory.`;
}
