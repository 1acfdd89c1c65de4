import { describe, expect, it } from 'vitest';
import { AbortError } from '../../../src/llm/errors/abort-error.js';
import { AuthenticationError } from '../../../src/llm/errors/authentication-error.js';
import { ContentFilterError } from '../../../src/llm/errors/content-filter-error.js';
import { ContextLengthError } from '../../../src/llm/errors/context-length-error.js';
import { errorFromException } from '../../../src/llm/errors/error-from-exception.js';
import { errorFromHttpStatus } from '../../../src/llm/errors/error-from-http-status.js';
import { InvalidRequestError } from '../../../src/llm/errors/invalid-request-error.js';
import { LLMError } from '../../../src/llm/errors/llm-error.js';
import { NetworkError } from '../../../src/llm/errors/network-error.js';
import { NotFoundError } from '../../../src/llm/errors/not-found-error.js';
import { parseRetryAfter } from '../../../src/llm/errors/parse-retry-after.js';
import { PermissionDeniedError } from '../../../src/llm/errors/permission-denied-error.js';
import { ProviderError } from '../../../src/llm/errors/provider-error.js';
import { QuotaExceededError } from '../../../src/llm/errors/quota-exceeded-error.js';
import { RateLimitError } from '../../../src/llm/errors/rate-limit-error.js';
import { RequestTimeoutError } from '../../../src/llm/errors/request-timeout-error.js';
import { reviveLLMError } from '../../../src/llm/errors/revive-llm-error.js';
import { ServerError } from '../../../src/llm/errors/server-error.js';

const body = (message: string, type = 'invalid_request_error') => ({ error: { message, type } });

describe('errorFromHttpStatus', () => {
  it.each([
    [400, body('bad field'), InvalidRequestError, false],
    [422, body('unprocessable'), InvalidRequestError, false],
    [400, body("This model's maximum context length is 128000 tokens"), ContextLengthError, false],
    [400, { error: { message: 'too big', code: 'context_length_exceeded' } }, ContextLengthError, false],
    [413, body('Request exceeds the maximum size', 'request_too_large'), ContextLengthError, false],
    [400, body('blocked by the safety system'), ContentFilterError, false],
    [401, body('invalid x-api-key', 'authentication_error'), AuthenticationError, false],
    [403, body('not allowed', 'permission_error'), PermissionDeniedError, false],
    [404, body('model: nope', 'not_found_error'), NotFoundError, false],
    [408, body('timeout'), RequestTimeoutError, false],
    [429, body('slow down', 'rate_limit_error'), RateLimitError, true],
    [
      429,
      { error: { message: 'You exceeded your quota', type: 'insufficient_quota' } },
      QuotaExceededError,
      false,
    ],
    [500, body('oops', 'api_error'), ServerError, true],
    [503, 'Service Unavailable', ServerError, true],
    [529, body('Overloaded', 'overloaded_error'), ServerError, true],
    [409, body('conflict'), ProviderError, true],
  ])('HTTP %i %j → %o', (status, errorBody, errorClass, retryable) => {
    const error = errorFromHttpStatus({ provider: 'p', status, body: errorBody });
    expect(error).toBeInstanceOf(errorClass);
    expect(error.isRetryable).toBe(retryable);
    expect(error.status).toBe(status);
    expect(error.provider).toBe('p');
    expect(error.message).toContain(`HTTP ${status}`);
  });

  it('carries the provider error type and Retry-After', () => {
    const error = errorFromHttpStatus({
      provider: 'anthropic',
      status: 429,
      body: body('slow', 'rate_limit_error'),
      headers: new Headers({ 'retry-after': '7' }),
    });
    expect(error).toMatchObject({ errorCode: 'rate_limit_error', retryAfterMs: 7000 });
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it.each([
    [{ 'retry-after': '2' }, 2000],
    [{ 'retry-after': '0.25' }, 250],
    [{ 'Retry-After': '3' }, 3000],
    [{ 'retry-after-ms': '150', 'retry-after': '9' }, 150],
    [{ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }, 5000],
    [{ 'retry-after': 'soon' }, undefined],
    [{}, undefined],
  ])('%j → %s', (headers, expected) => {
    expect(parseRetryAfter(headers, now)).toBe(expected);
  });
});

describe('errorFromException', () => {
  it('maps SDK-shaped errors by status, aborts and connection failures, and leaves bugs alone', () => {
    const sdkError = Object.assign(new Error('429'), {
      status: 429,
      headers: new Headers(),
      error: body('x'),
    });
    expect(errorFromException(sdkError, { provider: 'p' })).toBeInstanceOf(RateLimitError);
    const abort = Object.assign(new Error('aborted'), { name: 'APIUserAbortError' });
    expect(errorFromException(abort, { provider: 'p' })).toBeInstanceOf(AbortError);
    const refused = new TypeError('fetch failed', {
      cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
    });
    expect(errorFromException(refused, { provider: 'p' })).toBeInstanceOf(NetworkError);
    const bug = new RangeError('bug');
    expect(errorFromException(bug, { provider: 'p' })).toBe(bug);
  });
});

describe('reviveLLMError', () => {
  it('rebuilds the typed error from its JSON', () => {
    const original = new RateLimitError('slow', { provider: 'openai', status: 429, retryAfterMs: 10 });
    const revived = reviveLLMError(JSON.parse(JSON.stringify(original)));
    expect(revived).toBeInstanceOf(RateLimitError);
    expect(revived).toMatchObject({ provider: 'openai', status: 429, retryAfterMs: 10, isRetryable: true });
    expect(LLMError.isLLMError(revived)).toBe(true);
  });
});
