import { LLMError, type LLMErrorOptions } from './llm-error.js';

/** HTTP 5xx (including Anthropic's 529 overloaded): retryable. */
export class ServerError extends LLMError {
  constructor(message: string, options: LLMErrorOptions = {}) {
    super('llm.server', message, { isRetryable: true, ...options });
    this.name = 'ServerError';
  }
}
