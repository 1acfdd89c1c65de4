import type { LLMErrorOptions } from './llm-error.js';
import { ProviderError } from './provider-error.js';

/** HTTP 404: usually an unknown model name. */
export class NotFoundError extends ProviderError {
  constructor(message: string, options: LLMErrorOptions = {}) {
    super(message, { isRetryable: false, ...options }, 'llm.not_found');
    this.name = 'NotFoundError';
  }
}
