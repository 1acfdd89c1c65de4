import { LLMError, type LLMErrorOptions } from './llm-error.js';

/** HTTP 400/422: the provider rejected the request shape; retrying the same request cannot help. */
export class InvalidRequestError extends LLMError {
  constructor(message: string, options: LLMErrorOptions = {}) {
    super('llm.invalid_request', message, { isRetryable: false, ...options });
    this.name = 'InvalidRequestError';
  }
}
