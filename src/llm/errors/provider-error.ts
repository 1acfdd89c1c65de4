import { LLMError, type LLMErrorOptions } from './llm-error.js';

/**
 * Base of every error a provider reported (authentication, permission, not found, invalid request, context
 * length, content filter, quota, rate limit, server), so `instanceof ProviderError` catches them all. Used as
 * is for a provider failure that fits no subclass; retryable by default.
 */
export class ProviderError extends LLMError {
  /** `code` is for subclasses; a plain ProviderError is `llm.provider`. */
  constructor(message: string, options: LLMErrorOptions = {}, code = 'llm.provider') {
    super(code, message, { isRetryable: true, ...options });
    this.name = 'ProviderError';
  }
}
