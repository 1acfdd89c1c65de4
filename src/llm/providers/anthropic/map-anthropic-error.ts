import { definedFields } from '../../../shared/defined-fields.js';
import { AbortError } from '../../errors/abort-error.js';
import { errorFromException } from '../../errors/error-from-exception.js';
import { LLMError } from '../../errors/llm-error.js';
import { NetworkError } from '../../errors/network-error.js';
import { RateLimitError } from '../../errors/rate-limit-error.js';
import { ServerError } from '../../errors/server-error.js';
import { StreamError } from '../../errors/stream-error.js';

function streamErrorBody(error: unknown): { type?: string; message?: string } | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { status, error: body } = error as { status?: unknown; error?: unknown };
  if (status !== undefined || typeof body !== 'object' || body === null) return undefined;
  const inner = (body as { error?: { type?: string; message?: string } }).error;
  return inner ?? (body as { type?: string; message?: string });
}

/**
 * Whatever the Anthropic SDK threw, as our typed error. An `event: error` inside a stream arrives as an APIError
 * without status; its `error.type` decides (overloaded → server, rate limit → rate limit, else stream).
 * A connection lost after the stream started is a StreamError.
 */
export function mapAnthropicError(error: unknown, signal?: AbortSignal, streamStarted = false): unknown {
  const provider = 'anthropic';
  // After an abort the SDK may end the stream quietly or throw something generic; the abort is the cause.
  if (signal?.aborted && !(error instanceof AbortError)) {
    return new AbortError('anthropic: request aborted', { provider, cause: error });
  }
  const inStream = streamErrorBody(error);
  if (inStream && !signal?.aborted) {
    const message = `anthropic stream error: ${inStream.message ?? inStream.type ?? 'unknown'}`;
    const options = {
      provider,
      raw: inStream,
      cause: error,
      ...(inStream.type ? { errorCode: inStream.type } : {}),
    };
    if (inStream.type === 'overloaded_error' || inStream.type === 'api_error')
      return new ServerError(message, options);
    if (inStream.type === 'rate_limit_error') return new RateLimitError(message, options);
    return new StreamError(message, options);
  }
  if (streamStarted && !LLMError.isLLMError(error) && !signal?.aborted) {
    const message = error instanceof Error ? error.message : String(error);
    if (/terminated|socket|premature|aborted|ECONNRESET/i.test(message)) {
      return new StreamError(`anthropic stream broke mid-way: ${message}`, { provider, cause: error });
    }
  }
  const mapped = errorFromException(error, { provider, ...definedFields({ signal }) });
  if (streamStarted && mapped instanceof NetworkError) {
    return new StreamError(`anthropic stream broke mid-way: ${mapped.message}`, { provider, cause: error });
  }
  return mapped;
}
