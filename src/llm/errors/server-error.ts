import type { LLMErrorOptions } from './llm-error.js';
import { ProviderError } from './provider-error.js';

/** HTTP 5xx (including Anthropic's 529 overloaded): retryable. */
export class ServerError extends ProviderError {
  constructor(message: string, options: LLMErrorOptions = {}) {
    super(message, { isRetryable: true, ...options }, 'llm.server');
    this.name = 'ServerError';
  }
}
