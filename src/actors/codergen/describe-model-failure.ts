import { canonicalProvider, type ProviderStatus } from './configured-providers.js';

const AUTH_CODES = new Set(['llm.authentication', 'llm.permission_denied', 'llm.configuration']);
const TRANSIENT_CODES = new Set(['llm.rate_limit', 'llm.server', 'llm.network', 'llm.timeout', 'llm.stream']);

/**
 * The failure reason of a node whose model call failed, written for the person who must fix it: an
 * authentication problem names the provider and the variable to set; a transient error that outlived the
 * client's retries says so.
 */
export function describeModelFailure(
  error: { message: string; code?: string; provider?: string },
  provider: string | undefined,
  providers: readonly ProviderStatus[],
): string {
  const name = canonicalProvider(error.provider ?? provider ?? '') || 'the provider';
  const variable = providers.find((p) => p.name === name)?.variable;
  if (error.code && AUTH_CODES.has(error.code)) {
    return `${name} refused the request (${error.message}): check ${variable ?? 'its API key'}`;
  }
  if (error.code && TRANSIENT_CODES.has(error.code)) {
    return `${name} kept failing after retries: ${error.message}`;
  }
  return `${name} call failed: ${error.message}`;
}
