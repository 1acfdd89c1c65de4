import { definedFields } from '../../shared/defined-fields.js';
import { AuthenticationError } from './authentication-error.js';
import { ContentFilterError } from './content-filter-error.js';
import { ContextLengthError } from './context-length-error.js';
import { errorClassForGrpcStatus } from './error-class-for-grpc-status.js';
import { InvalidRequestError } from './invalid-request-error.js';
import type { LLMError, LLMErrorOptions } from './llm-error.js';
import { NotFoundError } from './not-found-error.js';
import { type HeaderSource, parseRetryAfter } from './parse-retry-after.js';
import { PermissionDeniedError } from './permission-denied-error.js';
import { ProviderError } from './provider-error.js';
import { QuotaExceededError } from './quota-exceeded-error.js';
import { RateLimitError } from './rate-limit-error.js';
import { RequestTimeoutError } from './request-timeout-error.js';
import { ServerError } from './server-error.js';

export interface HttpErrorInput {
  provider: string;
  status: number;
  /** The parsed JSON error body (or its text). */
  body?: unknown;
  headers?: HeaderSource;
  /** Used when the body carries no message. */
  message?: string;
  cause?: unknown;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

/** Anthropic, OpenAI and Gemini all nest `{ error: { message, type|code|status } }`; accept the flat form too. */
function describeBody(body: unknown): {
  message?: string;
  errorCode?: string;
  allCodes?: string;
  grpcStatus?: string;
} {
  if (typeof body === 'string') return body.trim() === '' ? {} : { message: body };
  const outer = record(body);
  const inner = record(outer?.['error']) ?? outer;
  if (!inner) return {};
  const message = inner['message'];
  const codes = [inner['code'], inner['type'], inner['status']].filter(
    (c): c is string => typeof c === 'string',
  );
  // OpenAI's `code` (context_length_exceeded, insufficient_quota) is more specific than its `type`.
  const code = codes[0];
  const grpcStatus = inner['status'];
  return {
    ...(typeof grpcStatus === 'string' ? { grpcStatus } : {}),
    ...(typeof message === 'string' ? { message } : {}),
    ...definedFields({ errorCode: code }),
    allCodes: codes.join(' '),
  };
}

const CONTEXT_LENGTH =
  /context[ _]length|context[ _]window|too many tokens|prompt is too long|maximum context|too long/i;
const CONTENT_FILTER = /content filter|content_filter|safety|content policy/i;
const QUOTA = /insufficient_quota|quota|credit balance|billing/i;
const NOT_FOUND = /not found|does not exist|not_found/i;
// Some providers (and proxies in front of them) report a bad key as 400, 403 or 500.
const UNAUTHORIZED =
  /unauthori[sz]ed|invalid[ _-]?(?:api[ _-]?)?key|incorrect api key|api key not valid|invalid x-api-key|authentication_error/i;

/**
 * Builds the typed error for a provider's HTTP failure. Message text decides first where the status is
 * ambiguous (context length and content filter on 400/422, a bad key under any status but 401/403), then a
 * gRPC status string (Gemini's `error.status`), then the HTTP status, then the text again for odd statuses.
 */
export function errorFromHttpStatus(input: HttpErrorInput): LLMError {
  const described = describeBody(input.body);
  const text = described.message ?? input.message ?? `HTTP ${input.status}`;
  const retryAfterMs = parseRetryAfter(input.headers);
  const options: LLMErrorOptions = {
    provider: input.provider,
    status: input.status,
    ...definedFields({ errorCode: described.errorCode, retryAfterMs, raw: input.body, cause: input.cause }),
  };
  const message = `${input.provider} (HTTP ${input.status}): ${text}`;
  const haystack = `${text} ${described.allCodes ?? ''}`;
  const status = input.status;
  if (status === 413 || ((status === 400 || status === 422) && CONTEXT_LENGTH.test(haystack))) {
    return new ContextLengthError(message, options);
  }
  if ((status === 400 || status === 422) && CONTENT_FILTER.test(haystack))
    return new ContentFilterError(message, options);
  if (status !== 401 && status !== 403 && status !== 429 && UNAUTHORIZED.test(haystack))
    return new AuthenticationError(message, options);
  const GrpcClass = errorClassForGrpcStatus(described.grpcStatus);
  if (GrpcClass) return new GrpcClass(message, options);
  if (status === 400 || status === 422) return new InvalidRequestError(message, options);
  if (status === 401) return new AuthenticationError(message, options);
  if (status === 403) return new PermissionDeniedError(message, options);
  if (status === 404) return new NotFoundError(message, options);
  if (status === 408) return new RequestTimeoutError(message, options);
  if (status === 429) {
    // OpenAI answers 429 for an empty account too; waiting does not help there.
    if (QUOTA.test(described.allCodes ?? '')) return new QuotaExceededError(message, options);
    return new RateLimitError(message, options);
  }
  if (status >= 500) return new ServerError(message, options);
  if (NOT_FOUND.test(haystack)) return new NotFoundError(message, options);
  if (CONTEXT_LENGTH.test(haystack)) return new ContextLengthError(message, options);
  if (CONTENT_FILTER.test(haystack)) return new ContentFilterError(message, options);
  return new ProviderError(message, options);
}
