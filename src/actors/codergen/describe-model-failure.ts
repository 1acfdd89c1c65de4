import { canonicalProvider, type ProviderStatus } from './configured-providers.js';

/** The provider answered, and said no to the credentials. */
const AUTH_CODES = new Set(['llm.authentication', 'llm.permission_denied']);
const TRANSIENT_CODES = new Set(['llm.rate_limit', 'llm.server', 'llm.network', 'llm.timeout', 'llm.stream']);

/**
 * The failure reason of a node whose model call failed, written for the person who must fix it: a refusal
 * names the provider and the key variable to check; a configuration error (no request was sent) says so
 * rather than blaming the provider; a transient error that outlived the client's retries says so.
 */
export function describeModelFailure(
  error: { message: string; code?: string; provider?: string },
  provider: string | undefined,
  providers: readonly ProviderStatus[],
): string {
  const name = canonicalProvider(error.provider ?? provider ?? '') || 'the provider';
  const status = providers.find((p) => p.name === name);
  if (error.code && AUTH_CODES.has(error.code)) {
    return `${name} refused the request (${error.message}): check ${status?.keyVariable ?? status?.variable ?? 'its API key'}`;
  }
  if (error.code === 'llm.configuration') {
    return `${name} could not be called, no request was sent: ${error.message}`;
  }
  if (error.code === 'llm.network' && status) {
    // Where it tried: a wrong or unreachable base URL is the usual cause, and the message alone hides it.
    const { url, variable } = status.endpoint;
    return `${name} could not be reached at ${url}${variable ? ` (${variable})` : ''}, even after retries: ${error.message}`;
  }
  if (error.code && TRANSIENT_CODES.has(error.code)) {
    return `${name} kept failing after retries: ${error.message}`;
  }
  return `${name} call failed: ${error.message}`;
}
