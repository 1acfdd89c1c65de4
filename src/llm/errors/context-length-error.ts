import type { LLMErrorOptions } from './llm-error.js';
import { ProviderError } from './provider-error.js';

/** HTTP 413, or a 400 saying the prompt is too long for the model context window. */
export class ContextLengthError extends ProviderError {
  constructor(message: string, options: LLMErrorOptions = {}) {
    super(message, { isRetryable: false, ...options }, 'llm.context_length');
    this.name = 'ContextLengthError';
  }
}
