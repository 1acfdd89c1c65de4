import { LLMClient } from '../../src/llm/index.js';

type Env = Record<string, string | undefined>;

/**
 * The providers the live smoke tests can reach: one per provider whose key is in the environment. The model
 * is the provider's cheapest capable one unless `ATTRACTOR_LIVE_<PROVIDER>_MODEL` names another; the usual
 * `*_BASE_URL` variables point the client elsewhere (a proxy, or the local stand-ins in the ordinary test
 * that proves this harness).
 */
export interface LiveTarget {
  provider: 'anthropic' | 'openai' | 'gemini';
  model: string;
  /** The variable whose absence skips this provider. */
  keyVariable: string;
  configured: boolean;
  /** A client for this provider only, from `env` (no .env file). */
  client(): LLMClient;
}

const PROVIDERS = [
  { provider: 'anthropic', keys: ['ANTHROPIC_API_KEY'], model: 'claude-haiku-4-5' },
  { provider: 'openai', keys: ['OPENAI_API_KEY'], model: 'gpt-5.2-mini' },
  { provider: 'gemini', keys: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'], model: 'gemini-2.5-flash' },
] as const;

export function liveTargets(env: Env): LiveTarget[] {
  return PROVIDERS.map(({ provider, keys, model }) => {
    const configured = keys.some((key) => Boolean(env[key]?.trim()));
    return {
      provider,
      model: env[`ATTRACTOR_LIVE_${provider.toUpperCase()}_MODEL`]?.trim() || model,
      keyVariable: keys[0],
      configured,
      client: () => {
        const all = LLMClient.fromEnv({ env, dotenv: false });
        const adapter = all.adapter(provider);
        if (!adapter) throw new Error(`no ${provider} adapter`);
        return new LLMClient({ adapters: [adapter] });
      },
    };
  });
}
