import { LLMError, type LLMErrorOptions } from './llm-error.js';

/** The connection failed or dropped before a response arrived: retryable. */
export class NetworkError extends LLMError {
  constructor(message: string, options: LLMErrorOptions = {}) {
    super('llm.network', message, { isRetryable: true, ...options });
    this.name = 'NetworkError';
  }
}
