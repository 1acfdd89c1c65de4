import { ConfigurationError } from '../../errors/configuration-error.js';

/**
 * The one wording of a missing key, for every provider: who needs it and which variable(s) to set,
 * e.g. `OpenAI API key missing: set OPENAI_API_KEY (or pass apiKey).`
 */
export function missingApiKeyError(
  label: string,
  provider: string,
  variables: readonly [string, ...string[]],
): ConfigurationError {
  return new ConfigurationError(`${label} API key missing: set ${variables.join(' or ')} (or pass apiKey).`, {
    provider,
  });
}
