import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortError } from '../../../src/llm/errors/abort-error.js';
import { AuthenticationError } from '../../../src/llm/errors/authentication-error.js';
import { ConfigurationError } from '../../../src/llm/errors/configuration-error.js';
import { ContentFilterError } from '../../../src/llm/errors/content-filter-error.js';
import { ContextLengthError } from '../../../src/llm/errors/context-length-error.js';
import { errorFromException } from '../../../src/llm/errors/error-from-exception.js';
import { errorFromHttpStatus } from '../../../src/llm/errors/error-from-http-status.js';
import { InvalidRequestError } from '../../../src/llm/errors/invalid-request-error.js';
import type { LLMError } from '../../../src/llm/errors/llm-error.js';
import { NetworkError } from '../../../src/llm/errors/network-error.js';
import { NotFoundError } from '../../../src/llm/errors/not-found-error.js';
import { PermissionDeniedError } from '../../../src/llm/errors/permission-denied-error.js';
import { ProviderError } from '../../../src/llm/errors/provider-error.js';
import { QuotaExceededError } from '../../../src/llm/errors/quota-exceeded-error.js';
import { RateLimitError } from '../../../src/llm/errors/rate-limit-error.js';
import { RequestTimeoutError } from '../../../src/llm/errors/request-timeout-error.js';
import { reviveLLMError } from '../../../src/llm/errors/revive-llm-error.js';
import { ServerError } from '../../../src/llm/errors/server-error.js';
import { StreamError } from '../../../src/llm/errors/stream-error.js';
import { Message } from '../../../src/llm/message.js';
import { GeminiAdapter } from '../../../src/llm/providers/gemini/gemini-adapter.js';
import {
  FAKE_GEMINI_KEY,
  geminiErrorReply,
  startFakeGeminiServer,
} from '../../helpers/fake-gemini-server.js';
import { rejectionOf } from '../../helpers/llm-fixtures.js';
import type { ScriptedServer } from '../../helpers/sse.js';

type ErrorClass = new (message: string) => LLMError;

describe('the provider error hierarchy', () => {
  it.each<[ErrorClass, string, boolean]>([
    [AuthenticationError, 'llm.authentication', false],
    [PermissionDeniedError, 'llm.permission_denied', false],
    [NotFoundError, 'llm.not_found', false],
    [InvalidRequestError, 'llm.invalid_request', false],
    [ContextLengthError, 'llm.context_length', false],
    [ContentFilterError, 'llm.content_filter', false],
    [QuotaExceededError, 'llm.quota_exceeded', false],
    [RateLimitError, 'llm.rate_limit', true],
    [ServerError, 'llm.server', true],
  ])('%o extends ProviderError, keeps its code and retryability, and revives', (Kind, code, retryable) => {
    const error = new Kind('x');
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code, isRetryable: retryable });
    const revived = reviveLLMError(JSON.parse(JSON.stringify(error)) as Record<string, unknown>);
    expect(revived).toBeInstanceOf(Kind);
    expect(revived).toBeInstanceOf(ProviderError);
  });

  it.each<[ErrorClass]>([
    [RequestTimeoutError],
    [AbortError],
    [NetworkError],
    [StreamError],
    [ConfigurationError],
  ])('%o is not a provider-reported error', (Kind) => {
    expect(new Kind('x')).not.toBeInstanceOf(ProviderError);
  });

  it('treats an unknown SDK error as a retryable ProviderError and leaves JavaScript bugs alone', () => {
    const unknown = Object.assign(new Error('stream ended with an unexpected event'), { name: 'APIError' });
    const mapped = errorFromException(unknown, { provider: 'openai' });
    expect(mapped).toBeInstanceOf(ProviderError);
    expect(mapped).toMatchObject({ isRetryable: true, provider: 'openai', cause: unknown });
    const plain = errorFromException(new Error('Unexpected event order, got message_stop'), {
      provider: 'a',
    });
    expect(plain).toMatchObject({ code: 'llm.provider', isRetryable: true });
    const bug = new TypeError('x is undefined');
    expect(errorFromException(bug, { provider: 'a' })).toBe(bug);
  });
});

describe('classification by message text and gRPC status', () => {
  const body = (message: string, status?: string) => ({ error: { message, ...(status ? { status } : {}) } });
  it.each<[number, unknown, ErrorClass]>([
    [400, body('Unauthorized: invalid api key'), AuthenticationError],
    [500, body('invalid x-api-key'), AuthenticationError],
    [400, body('API key not valid. Please pass a valid API key.'), AuthenticationError],
    [418, body('Requested entity does not exist'), NotFoundError],
    [418, body('too many tokens in the prompt'), ContextLengthError],
    [418, body('blocked for safety reasons'), ContentFilterError],
    [418, body('teapot'), ProviderError],
    [418, body('x', 'NOT_FOUND'), NotFoundError],
    [418, body('x', 'INVALID_ARGUMENT'), InvalidRequestError],
    [418, body('x', 'UNAUTHENTICATED'), AuthenticationError],
    [418, body('x', 'PERMISSION_DENIED'), PermissionDeniedError],
    [418, body('x', 'RESOURCE_EXHAUSTED'), RateLimitError],
    [418, body('x', 'UNAVAILABLE'), ServerError],
    [504, body('x', 'DEADLINE_EXCEEDED'), RequestTimeoutError],
    [418, body('x', 'INTERNAL'), ServerError],
    [400, body('x', 'FAILED_PRECONDITION'), InvalidRequestError],
  ])('HTTP %i %j → %o', (status, errorBody, Kind) => {
    expect(errorFromHttpStatus({ provider: 'p', status, body: errorBody })).toBeInstanceOf(Kind);
  });
});

describe('Gemini gRPC statuses through the fake server', () => {
  let server: ScriptedServer;
  let adapter: GeminiAdapter;
  beforeAll(async () => {
    server = await startFakeGeminiServer();
    adapter = new GeminiAdapter({ apiKey: FAKE_GEMINI_KEY, baseURL: server.origin, env: {} });
  });
  afterAll(() => server.close());

  it.each<[number, string, ErrorClass]>([
    [504, 'DEADLINE_EXCEEDED', RequestTimeoutError],
    [499, 'UNAUTHENTICATED', AuthenticationError],
    [503, 'UNAVAILABLE', ServerError],
    [404, 'NOT_FOUND', NotFoundError],
  ])('HTTP %i %s → %o', async (code, status, Kind) => {
    server.enqueue(geminiErrorReply(code, status, 'the request failed'));
    const error = await rejectionOf(
      adapter.complete({ model: 'gemini-2.5-pro', messages: [Message.user('x')] }),
    );
    expect(error).toBeInstanceOf(Kind);
    expect(error).toMatchObject({ provider: 'gemini', status: code, errorCode: status });
  });
});
