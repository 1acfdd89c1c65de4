import { definedFields } from '../../../shared/defined-fields.js';
import { AbortError } from '../../errors/abort-error.js';
import { AuthenticationError } from '../../errors/authentication-error.js';
import { ContextLengthError } from '../../errors/context-length-error.js';
import { errorFromException } from '../../errors/error-from-exception.js';
import { errorFromHttpStatus } from '../../errors/error-from-http-status.js';
import { LLMError, type LLMErrorOptions } from '../../errors/llm-error.js';
import { NetworkError } from '../../errors/network-error.js';
import { parseRetryAfter } from '../../errors/parse-retry-after.js';
import { RateLimitError } from '../../errors/rate-limit-error.js';
import { RequestTimeoutError } from '../../errors/request-timeout-error.js';
import { StreamError } from '../../errors/stream-error.js';

export interface GeminiErrorContext {
  /** The caller's signal: if it fired, the failure is an abort whatever the SDK threw. */
  signal?: AbortSignal;
  /** Our timer fired (see request-deadline.ts). */
  timedOut?: boolean;
  timeoutMs?: number;
  /** Headers of the failed response, which the SDK's ApiError does not keep. */
  headers?: Headers;
  /** A stream had already delivered events: a dropped connection is then a broken stream. */
  streamStarted?: boolean;
}

interface GoogleErrorBody {
  code?: number;
  message?: string;
  status?: string;
  details?: { '@type'?: string; reason?: string; retryDelay?: string }[];
}

const PROVIDER = 'gemini';
const CONTEXT_LENGTH = /exceeds the maximum number of tokens|input token count .* exceeds/i;

/** The SDK's ApiError message is the JSON error body; other errors carry plain text. */
function parseBody(message: string): GoogleErrorBody | undefined {
  const start = message.indexOf('{');
  if (start < 0) return undefined;
  try {
    const parsed = JSON.parse(message.slice(start)) as { error?: GoogleErrorBody };
    return typeof parsed.error === 'object' && parsed.error !== null ? parsed.error : undefined;
  } catch {
    return undefined;
  }
}

/** google.rpc.RetryInfo's `retryDelay` ("7s", "0.5s"), in milliseconds. */
function retryInfoDelayMs(body: GoogleErrorBody | undefined): number | undefined {
  const info = body?.details?.find((detail) => detail['@type']?.endsWith('google.rpc.RetryInfo'));
  const match = /^(\d+(?:\.\d+)?)s$/.exec(info?.retryDelay ?? '');
  return match ? Math.round(Number(match[1]) * 1000) : undefined;
}

function fromStatus(status: number, message: string, context: GeminiErrorContext, cause: unknown): LLMError {
  const body = parseBody(message);
  const text = body?.message ?? message;
  const retryAfterMs = parseRetryAfter(context.headers) ?? retryInfoDelayMs(body);
  const options: LLMErrorOptions = {
    provider: PROVIDER,
    status,
    ...(body?.status !== undefined ? { errorCode: body.status } : {}),
    ...definedFields({ retryAfterMs }),
    raw: body === undefined ? message : { error: body },
    cause,
  };
  const full = `${PROVIDER} (HTTP ${status}): ${text}`;
  // Gemini answers a bad key with 400 INVALID_ARGUMENT; only the ErrorInfo reason says what it is.
  if (body?.details?.some((detail) => detail.reason === 'API_KEY_INVALID'))
    return new AuthenticationError(full, options);
  if (CONTEXT_LENGTH.test(text)) return new ContextLengthError(full, options);
  if (status === 429) return new RateLimitError(full, options);
  return errorFromHttpStatus({
    provider: PROVIDER,
    status,
    body: body === undefined ? text : { error: body },
    ...definedFields({ headers: context.headers }),
    message: text,
    cause,
  });
}

/** Maps what @google/genai (or our deadline) threw to the LLM error hierarchy; unknown values come back unchanged. */
export function mapGeminiError(error: unknown, context: GeminiErrorContext = {}): unknown {
  if (context.timedOut) {
    return new RequestTimeoutError(`${PROVIDER}: no response within ${context.timeoutMs ?? '?'} ms`, {
      provider: PROVIDER,
      cause: error,
    });
  }
  if (context.signal?.aborted)
    return new AbortError(`${PROVIDER}: request aborted`, { provider: PROVIDER, cause: error });
  if (LLMError.isLLMError(error)) return error;

  const candidate = error as { name?: unknown; status?: unknown; message?: unknown } | null;
  if (candidate?.name === 'ApiError' && typeof candidate.status === 'number') {
    return fromStatus(candidate.status, String(candidate.message), context, error);
  }
  const mapped = errorFromException(error, { provider: PROVIDER });
  if (mapped instanceof NetworkError && context.streamStarted) {
    return new StreamError(`${PROVIDER}: stream broke mid-way: ${mapped.message}`, {
      provider: PROVIDER,
      cause: error,
    });
  }
  // The SDK's own complaint about a truncated stream.
  if (error instanceof Error && /Incomplete JSON segment/.test(error.message)) {
    return new StreamError(`${PROVIDER}: stream broke mid-way: ${error.message}`, {
      provider: PROVIDER,
      cause: error,
    });
  }
  return mapped;
}
