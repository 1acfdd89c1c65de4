import type { LLMErrorOptions } from './llm-error.js';
import { ProviderError } from './provider-error.js';

/** HTTP 400/422: the provider rejected the request shape; retrying the same request cannot help. */
export class InvalidRequestError extends ProviderError {
  constructor(message: string, options: LLMErrorOptions = {}) {
    super(message, { isRetryable: false, ...options }, 'llm.invalid_request');
    this.name = 'InvalidRequestError';
  }
}
