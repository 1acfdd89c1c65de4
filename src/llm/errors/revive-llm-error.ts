import { AbortError } from './abort-error.js';
import { AuthenticationError } from './authentication-error.js';
import { ConfigurationError } from './configuration-error.js';
import { ContentFilterError } from './content-filter-error.js';
import { ContextLengthError } from './context-length-error.js';
import { InvalidRequestError } from './invalid-request-error.js';
import { InvalidToolCallError } from './invalid-tool-call-error.js';
import { LLMError, type LLMErrorOptions } from './llm-error.js';
import { NetworkError } from './network-error.js';
import { NoObjectGeneratedError } from './no-object-generated-error.js';
import { NotFoundError } from './not-found-error.js';
import { PermissionDeniedError } from './permission-denied-error.js';
import { ProviderError } from './provider-error.js';
import { QuotaExceededError } from './quota-exceeded-error.js';
import { RateLimitError } from './rate-limit-error.js';
import { RequestTimeoutError } from './request-timeout-error.js';
import { ServerError } from './server-error.js';
import { StreamError } from './stream-error.js';
import { UnsupportedToolChoiceError } from './unsupported-tool-choice-error.js';

type Simple = new (message: string, options?: LLMErrorOptions) => LLMError;

const BY_CODE: Record<string, Simple> = {
  'llm.aborted': AbortError,
  'llm.authentication': AuthenticationError,
  'llm.configuration': ConfigurationError,
  'llm.content_filter': ContentFilterError,
  'llm.context_length': ContextLengthError,
  'llm.invalid_request': InvalidRequestError,
  'llm.network': NetworkError,
  'llm.not_found': NotFoundError,
  'llm.permission_denied': PermissionDeniedError,
  'llm.provider': ProviderError,
  'llm.quota_exceeded': QuotaExceededError,
  'llm.rate_limit': RateLimitError,
  'llm.timeout': RequestTimeoutError,
  'llm.server': ServerError,
  'llm.stream': StreamError,
  'llm.unsupported_tool_choice': UnsupportedToolChoiceError,
};

/** Rebuilds a typed error from its `toJSON()` form (cassettes store errors that way). */
export function reviveLLMError(json: Record<string, unknown>): LLMError {
  const message = typeof json['message'] === 'string' ? json['message'] : 'LLM error';
  const code = typeof json['code'] === 'string' ? json['code'] : 'llm.provider';
  const options: LLMErrorOptions = {};
  if (typeof json['provider'] === 'string') options.provider = json['provider'];
  if (typeof json['status'] === 'number') options.status = json['status'];
  if (typeof json['errorCode'] === 'string') options.errorCode = json['errorCode'];
  if (typeof json['retryAfterMs'] === 'number') options.retryAfterMs = json['retryAfterMs'];
  if (typeof json['isRetryable'] === 'boolean') options.isRetryable = json['isRetryable'];
  if (json['raw'] !== undefined) options.raw = json['raw'];
  // The two classes with a field of their own.
  if (code === 'llm.invalid_tool_call')
    return new InvalidToolCallError(message, String(json['toolName'] ?? ''), options);
  if (code === 'llm.no_object_generated')
    return new NoObjectGeneratedError(message, String(json['text'] ?? ''), options);
  const ErrorClass = BY_CODE[code];
  return ErrorClass ? new ErrorClass(message, options) : new LLMError(code, message, options);
}
