import { describe, expect, it } from 'vitest';
import { AbortError } from '../../../src/llm/errors/abort-error.js';
import { AuthenticationError } from '../../../src/llm/errors/authentication-error.js';
import { ConfigurationError } from '../../../src/llm/errors/configuration-error.js';
import { ContentFilterError } from '../../../src/llm/errors/content-filter-error.js';
import { ContextLengthError } from '../../../src/llm/errors/context-length-error.js';
import { InvalidRequestError } from '../../../src/llm/errors/invalid-request-error.js';
import { InvalidToolCallError } from '../../../src/llm/errors/invalid-tool-call-error.js';
import type { LLMError } from '../../../src/llm/errors/llm-error.js';
import { NetworkError } from '../../../src/llm/errors/network-error.js';
import { NoObjectGeneratedError } from '../../../src/llm/errors/no-object-generated-error.js';
import { NotFoundError } from '../../../src/llm/errors/not-found-error.js';
import { PermissionDeniedError } from '../../../src/llm/errors/permission-denied-error.js';
import { ProviderError } from '../../../src/llm/errors/provider-error.js';
import { QuotaExceededError } from '../../../src/llm/errors/quota-exceeded-error.js';
import { RateLimitError } from '../../../src/llm/errors/rate-limit-error.js';
import { RequestTimeoutError } from '../../../src/llm/errors/request-timeout-error.js';
import { reviveLLMError } from '../../../src/llm/errors/revive-llm-error.js';
import { ServerError } from '../../../src/llm/errors/server-error.js';
import { StreamError } from '../../../src/llm/errors/stream-error.js';
import { UnsupportedToolChoiceError } from '../../../src/llm/errors/unsupported-tool-choice-error.js';

const options = { provider: 'p' };

// Every class the client throws: a cassette that recorded one must replay the same class.
describe('reviveLLMError round trip', () => {
  it.each<[string, LLMError]>([
    ['AbortError', new AbortError('m', options)],
    ['AuthenticationError', new AuthenticationError('m', options)],
    ['ConfigurationError', new ConfigurationError('m', options)],
    ['ContentFilterError', new ContentFilterError('m', options)],
    ['ContextLengthError', new ContextLengthError('m', options)],
    ['InvalidRequestError', new InvalidRequestError('m', options)],
    ['InvalidToolCallError', new InvalidToolCallError('m', 'shell', options)],
    ['NetworkError', new NetworkError('m', options)],
    ['NoObjectGeneratedError', new NoObjectGeneratedError('m', '{"a":', options)],
    ['NotFoundError', new NotFoundError('m', options)],
    ['PermissionDeniedError', new PermissionDeniedError('m', options)],
    ['ProviderError', new ProviderError('m', options)],
    ['QuotaExceededError', new QuotaExceededError('m', options)],
    ['RateLimitError', new RateLimitError('m', options)],
    ['RequestTimeoutError', new RequestTimeoutError('m', options)],
    ['ServerError', new ServerError('m', options)],
    ['StreamError', new StreamError('m', options)],
    ['UnsupportedToolChoiceError', new UnsupportedToolChoiceError('m', options)],
  ])('%s', (_name, original) => {
    const revived = reviveLLMError(JSON.parse(JSON.stringify(original.toJSON())));
    expect(revived).toBeInstanceOf(original.constructor);
    expect(revived.toJSON()).toEqual(original.toJSON());
  });
});
