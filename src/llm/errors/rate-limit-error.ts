import { LLMError, type LLMErrorOptions } from './llm-error.js';

/** HTTP 429: retryable; `retryAfterMs` carries the server's Retry-After when it sent one. */
export class RateLimitError extends LLMError {
  constructor(message: string, options: LLMErrorOptions = {}) {
    super('llm.rate_limit', message, { isRetryable: true, ...options });
    this.name = 'RateLimitError';
  }
}
