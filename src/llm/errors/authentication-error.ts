import type { LLMErrorOptions } from './llm-error.js';
import { ProviderError } from './provider-error.js';

/** HTTP 401: the API key is missing, malformed or revoked. */
export class AuthenticationError extends ProviderError {
  constructor(message: string, options: LLMErrorOptions = {}) {
    super(message, { isRetryable: false, ...options }, 'llm.authentication');
    this.name = 'AuthenticationError';
  }
}
