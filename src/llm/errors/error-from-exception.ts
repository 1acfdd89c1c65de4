import { definedFields } from '../../shared/defined-fields.js';
import { AbortError } from './abort-error.js';
import { errorFromHttpStatus } from './error-from-http-status.js';
import { LLMError } from './llm-error.js';
import { NetworkError } from './network-error.js';
import { ProviderError } from './provider-error.js';
import { RequestTimeoutError } from './request-timeout-error.js';

export interface ExceptionContext {
  provider: string;
  /** The caller's signal: when it fired, whatever the SDK threw is reported as an abort. */
  signal?: AbortSignal;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
]);

function errorName(value: unknown): string {
  return typeof value === 'object' && value !== null ? String((value as { name?: unknown }).name ?? '') : '';
}

function looksLikeNetwork(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    const name = errorName(current);
    if (name === 'APIConnectionError' || name === 'FetchError') return true;
    if (current instanceof TypeError && /fetch failed|terminated|network/i.test(current.message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** JavaScript's own error classes: thrown by code, never by a provider, so they are bugs. */
const PROGRAMMING_ERRORS = [TypeError, RangeError, ReferenceError, SyntaxError, EvalError];

/**
 * Maps what an official SDK throws to our hierarchy. Both the Anthropic and OpenAI SDKs throw an `APIError` with
 * `status`, `headers` and the parsed body in `error`; their abort and connection errors have no status.
 * Any other error (an SDK's `APIError` without a status, a stream-protocol complaint) is an unknown provider
 * failure: a ProviderError, retryable by default (docs/decisions/0032-llm-tool-names-and-retryable-errors.md). JavaScript's built-in errors (TypeError,
 * RangeError, ...) and non-Error values are bugs and come back unchanged, never retried.
 */
export function errorFromException(error: unknown, context: ExceptionContext): unknown {
  if (LLMError.isLLMError(error)) return error;
  const { provider } = context;
  const name = errorName(error);
  const message = error instanceof Error ? error.message : String(error);
  if (context.signal?.aborted || name === 'AbortError' || name === 'APIUserAbortError') {
    return new AbortError(`${provider}: request aborted`, { provider, cause: error });
  }
  if (name === 'APIConnectionTimeoutError' || name === 'TimeoutError') {
    return new RequestTimeoutError(`${provider}: request timed out`, { provider, cause: error });
  }
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === 'number') {
    const e = error as { headers?: Headers; error?: unknown };
    return errorFromHttpStatus({
      provider,
      status,
      body: e.error,
      ...definedFields({ headers: e.headers }),
      message,
      cause: error,
    });
  }
  if (looksLikeNetwork(error)) {
    return new NetworkError(`${provider}: connection failed: ${message}`, { provider, cause: error });
  }
  if (!(error instanceof Error) || PROGRAMMING_ERRORS.some((kind) => error instanceof kind)) return error;
  return new ProviderError(`${provider}: ${message}`, { provider, cause: error });
}
