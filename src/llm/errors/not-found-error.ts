import { LLMError, type LLMErrorOptions } from './llm-error.js';

/** HTTP 404: usually an unknown model name. */
export class NotFoundError extends LLMError {
  constructor(message: string, options: LLMErrorOptions = {}) {
    super('llm.not_found', message, { isRetryable: false, ...options });
    this.name = 'NotFoundError';
  }
}
