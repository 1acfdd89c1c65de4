import { type Env, loadDotEnv, readLLMEnvConfig } from './env-config.js';
import type { ProviderAdapter } from './provider-adapter.js';
import { AnthropicAdapter } from './providers/anthropic/anthropic-adapter.js';
import { GeminiAdapter } from './providers/gemini/gemini-adapter.js';
import { OpenAIAdapter } from './providers/openai/openai-adapter.js';
import { OpenAICompatibleAdapter } from './providers/openai-compatible/openai-compatible-adapter.js';

export interface EnvAdapterOptions {
  /** Defaults to process.env. */
  env?: Env;
  /** Directory whose `.env` is read underneath `env`; `false` skips it. Defaults to the working directory. */
  dotenv?: string | false;
}

/** The environment with `.env` underneath, as the options say. */
export function environmentOf(options: EnvAdapterOptions = {}): Env {
  const base = options.env ?? process.env;
  return options.dotenv === false ? { ...base } : loadDotEnv(options.dotenv ?? process.cwd(), base);
}

/**
 * Every built-in adapter, configured from the environment (and .env). All are registered even without a key,
 * so a missing key fails at the first call with the variable's name; those with a key come first, so the
 * client's default provider is one that can actually answer.
 */
export function adaptersFromEnv(options: EnvAdapterOptions = {}): ProviderAdapter[] {
  const env = environmentOf(options);
  const config = readLLMEnvConfig(env);
  const keyed = (key: string | undefined) => (key ? { apiKey: key } : {});
  const url = (baseURL: string | undefined) => (baseURL ? { baseURL } : {});
  const entries: Array<{ adapter: ProviderAdapter; hasKey: boolean }> = [
    {
      adapter: new AnthropicAdapter({
        ...keyed(config.anthropic.apiKey),
        ...url(config.anthropic.baseURL),
        env,
      }),
      hasKey: config.anthropic.apiKey !== undefined,
    },
    {
      adapter: new OpenAIAdapter({
        ...keyed(config.openai.apiKey),
        ...url(config.openai.baseURL),
        ...(config.openai.organization ? { organization: config.openai.organization } : {}),
        ...(config.openai.project ? { project: config.openai.project } : {}),
        // Without it the adapter falls back to process.env, leaking keys into a caller's isolated env.
        env,
      }),
      hasKey: config.openai.apiKey !== undefined,
    },
    {
      adapter: new GeminiAdapter({ ...keyed(config.gemini.apiKey), ...url(config.gemini.baseURL), env }),
      hasKey: config.gemini.apiKey !== undefined,
    },
  ];
  // Registered only when a server is configured: it claims no model prefix, so requests reach it
  // with `provider: 'openai-compatible'`.
  if (config.openaiCompatible) {
    entries.push({
      adapter: new OpenAICompatibleAdapter({
        ...keyed(config.openaiCompatible.apiKey),
        ...url(config.openaiCompatible.baseURL),
        env,
      }),
      hasKey: false,
    });
  }
  return [...entries.filter((entry) => entry.hasKey), ...entries.filter((entry) => !entry.hasKey)].map(
    (entry) => entry.adapter,
  );
}
