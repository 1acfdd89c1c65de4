import { describe, expect, it } from 'vitest';
import * as llm from '../../../src/llm/index.js';

// Every name code written for other LLM clients uses for an error class must be importable from `attractor/llm`,
// the two that differ from ours as aliases of the same class (not copies: `instanceof` must agree).
const PROVIDER_ERRORS = [
  'AuthenticationError',
  'AccessDeniedError',
  'NotFoundError',
  'InvalidRequestError',
  'RateLimitError',
  'ServerError',
  'ContentFilterError',
  'ContextLengthError',
  'QuotaExceededError',
] as const;
const OTHER_ERRORS = [
  'RequestTimeoutError',
  'AbortError',
  'NetworkError',
  'StreamError',
  'InvalidToolCallError',
  'UnsupportedToolChoiceError',
  'NoObjectGeneratedError',
  'ConfigurationError',
] as const;

type ErrorClass = new (message: string) => Error;
const exported = llm as unknown as Record<string, ErrorClass | undefined>;

describe('the error class names', () => {
  it('SDKError and AccessDeniedError are our LLMError and PermissionDeniedError', () => {
    expect(llm.SDKError).toBe(llm.LLMError);
    expect(llm.AccessDeniedError).toBe(llm.PermissionDeniedError);
    const denied = llm.errorFromHttpStatus({ provider: 'openai', status: 403, message: 'no access' });
    expect(denied).toBeInstanceOf(llm.AccessDeniedError);
    expect(denied).toBeInstanceOf(llm.SDKError);
  });

  it.each(PROVIDER_ERRORS)('%s is exported and is a ProviderError and an SDKError', (name) => {
    const Kind = exported[name];
    expect(Kind, name).toBeTypeOf('function');
    const error = new Kind!('x');
    expect(error).toBeInstanceOf(llm.ProviderError);
    expect(error).toBeInstanceOf(llm.SDKError);
  });

  it.each(OTHER_ERRORS)('%s is exported and is an SDKError', (name) => {
    const Kind = exported[name];
    expect(Kind, name).toBeTypeOf('function');
    expect(new Kind!('x')).toBeInstanceOf(llm.SDKError);
  });
});
