import { LLMError, type LLMErrorOptions } from './llm-error.js';

/** HTTP 413, or a 400 saying the prompt is too long for the model context window. */
export class ContextLengthError extends LLMError {
  constructor(message: string, options: LLMErrorOptions = {}) {
    super('llm.context_length', message, { isRetryable: false, ...options });
    this.name = 'ContextLengthError';
  }
}
