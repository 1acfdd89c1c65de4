import type { LLMErrorOptions } from './llm-error.js';
import { ProviderError } from './provider-error.js';

/** HTTP 429: retryable; `retryAfterMs` carries the server's Retry-After when it sent one. */
export class RateLimitError extends ProviderError {
  constructor(message: string, options: LLMErrorOptions = {}) {
    super(message, { isRetryable: true, ...options }, 'llm.rate_limit');
    this.name = 'RateLimitError';
  }
}
