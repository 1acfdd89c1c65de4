import { type ErrorMappingContext, mapOpenAIError } from '../openai/map-openai-error.js';

export type OpenAICompatibleErrorContext = Omit<ErrorMappingContext, 'provider'> & { provider?: string };

/**
 * Maps what the openai SDK threw while talking to an OpenAI-compatible server. The SDK and the error
 * envelope are OpenAI's, so this is OpenAI's mapping under the adapter's own provider name.
 */
export function mapOpenAICompatibleError(
  error: unknown,
  context: OpenAICompatibleErrorContext = {},
): unknown {
  return mapOpenAIError(error, { ...context, provider: context.provider ?? 'openai-compatible' });
}
