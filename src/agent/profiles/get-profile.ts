import { AttractorError } from '../../shared/errors.js';
import { anthropicProfile } from './anthropic-profile.js';
import type { ProfileOptions } from './create-profile.js';
import { geminiProfile } from './gemini-profile.js';
import { openaiCompatibleProfile } from './openai-compatible-profile.js';
import { openaiProfile } from './openai-profile.js';
import type { ProviderProfile } from './provider-profile.js';

const FACTORIES: Record<string, (options: ProfileOptions) => ProviderProfile> = {
  anthropic: anthropicProfile,
  openai: openaiProfile,
  gemini: geminiProfile,
  google: geminiProfile,
  'openai-compatible': openaiCompatibleProfile,
};

export const PROFILE_PROVIDERS = ['anthropic', 'openai', 'gemini', 'openai-compatible'] as const;

/**
 * The agent profile for a provider (`google` is accepted for `gemini`).
 *
 * @example
 * const profile = getProfile('anthropic', { model: 'claude-opus-4-6' });
 */
export function getProfile(provider: string, options: ProfileOptions = {}): ProviderProfile {
  const factory = FACTORIES[provider];
  if (!factory) {
    throw new AttractorError(
      'agent.unknown_provider',
      `No agent profile for provider "${provider}" (known: ${PROFILE_PROVIDERS.join(', ')}).`,
    );
  }
  return factory(options);
}
