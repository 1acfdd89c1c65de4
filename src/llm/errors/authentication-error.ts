import { LLMError, type LLMErrorOptions } from './llm-error.js';

/** HTTP 401: the API key is missing, malformed or revoked. */
export class AuthenticationError extends LLMError {
  constructor(message: string, options: LLMErrorOptions = {}) {
    super('llm.authentication', message, { isRetryable: false, ...options });
    this.name = 'AuthenticationError';
  }
}
