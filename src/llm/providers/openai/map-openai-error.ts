import { definedFields } from '../../../shared/defined-fields.js';
import { AbortError } from '../../errors/abort-error.js';
import { ContentFilterError } from '../../errors/content-filter-error.js';
import { ContextLengthError } from '../../errors/context-length-error.js';
import { errorFromException } from '../../errors/error-from-exception.js';
import { errorFromHttpStatus } from '../../errors/error-from-http-status.js';
import { InvalidRequestError } from '../../errors/invalid-request-error.js';
import { LLMError, type LLMErrorOptions } from '../../errors/llm-error.js';
import { NetworkError } from '../../errors/network-error.js';
import { parseRetryAfter } from '../../errors/parse-retry-after.js';
import { RateLimitError } from '../../errors/rate-limit-error.js';
import { RequestTimeoutError } from '../../errors/request-timeout-error.js';
import { ServerError } from '../../errors/server-error.js';
import { StreamError } from '../../errors/stream-error.js';

/** What the adapter knew when the call failed. */
export interface ErrorMappingContext {
  /** `openai` or `openai-compatible`. */
  provider: string;
  /** The caller's signal: if it fired, the failure is an abort whatever the SDK threw. */
  signal?: AbortSignal;
  /** Our timer fired (see request-deadline.ts). */
  timedOut?: boolean;
  timeoutMs?: number;
  /** A stream had already delivered events: a dropped connection is then a broken stream. */
  streamStarted?: boolean;
}

interface OpenAIErrorBody {
  message?: unknown;
  type?: unknown;
  code?: unknown;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The typed error for a failure reported inside a 200 response: a Responses `error` event, a
 * `response.failed` event's `response.error`, or a Chat Completions chunk carrying `{error}`.
 */
export function openAIErrorFromCode(
  provider: string,
  code: string | undefined,
  message: string,
  raw?: unknown,
): LLMError {
  const options: LLMErrorOptions = {
    provider,
    ...definedFields({ errorCode: code, raw }),
  };
  const full = `${provider}: ${message}`;
  switch (code) {
    case 'context_length_exceeded':
      return new ContextLengthError(full, options);
    case 'rate_limit_exceeded':
      return new RateLimitError(full, options);
    case 'server_error':
    case 'internal_error':
      return new ServerError(full, options);
    case 'content_filter':
    case 'content_policy_violation':
      return new ContentFilterError(full, options);
    case 'invalid_prompt':
    case 'invalid_request_error':
      return new InvalidRequestError(full, options);
    default:
      return new StreamError(full, options);
  }
}

function fromHttpError(
  error: { status: number; headers?: Headers; error?: unknown; message: string },
  provider: string,
) {
  const body = (
    typeof error.error === 'object' && error.error !== null ? error.error : {}
  ) as OpenAIErrorBody;
  const code = text(body.code);
  const type = text(body.type);
  const message = text(body.message) ?? error.message;
  const retryAfterMs = parseRetryAfter(error.headers);
  const options: LLMErrorOptions = {
    provider,
    status: error.status,
    ...((code ?? type) !== undefined ? { errorCode: (code ?? type) as string } : {}),
    ...definedFields({ retryAfterMs }),
    raw: { error: error.error },
    cause: error,
  };
  const full = `${provider} (HTTP ${error.status}): ${message}`;
  // The code is the reliable signal; the shared status table only sees the message text.
  if (code === 'context_length_exceeded' || code === 'string_above_max_length' || error.status === 413) {
    return new ContextLengthError(full, options);
  }
  if (code === 'content_filter' || code === 'content_policy_violation')
    return new ContentFilterError(full, options);
  return errorFromHttpStatus({
    provider,
    status: error.status,
    body: { error: error.error },
    ...definedFields({ headers: error.headers }),
    message,
    cause: error,
  });
}

/**
 * Maps whatever the openai SDK (or our deadline) threw to the LLM error hierarchy. Shared by the OpenAI
 * and OpenAI-compatible adapters, which use the same SDK. Unrecognised values come back unchanged.
 */
export function mapOpenAIError(error: unknown, context: ErrorMappingContext): unknown {
  const { provider } = context;
  // First: an aborted SDK stream ends quietly, and what we then throw ("ended early") is only a symptom.
  if (context.timedOut) {
    return new RequestTimeoutError(`${provider}: no response within ${context.timeoutMs ?? '?'} ms`, {
      provider,
      cause: error,
    });
  }
  if (context.signal?.aborted)
    return new AbortError(`${provider}: request aborted`, { provider, cause: error });
  if (LLMError.isLLMError(error)) return error;

  const candidate = error as {
    status?: unknown;
    headers?: Headers;
    error?: unknown;
    message?: unknown;
  } | null;
  if (typeof candidate?.status === 'number') {
    return fromHttpError(
      {
        status: candidate.status,
        headers: candidate.headers,
        error: candidate.error,
        message: String(candidate.message),
      },
      provider,
    );
  }
  // The SDK throws an APIError without a status for a stream chunk that carries `{error}`.
  // (Its `name` is plain 'Error', hence the constructor check.)
  const sdkClass = typeof error === 'object' && error !== null ? error.constructor?.name : undefined;
  if (sdkClass === 'APIError' && typeof candidate?.error === 'object' && candidate.error !== null) {
    const body = candidate.error as OpenAIErrorBody;
    return openAIErrorFromCode(
      provider,
      text(body.code) ?? text(body.type),
      text(body.message) ?? 'stream error',
      {
        error: candidate.error,
      },
    );
  }

  const mapped = errorFromException(error, { provider });
  if (context.streamStarted && mapped instanceof NetworkError) {
    return new StreamError(`${provider}: stream broke mid-way: ${mapped.message}`, {
      provider,
      cause: error,
    });
  }
  return mapped;
}
