import { LLMError, type LLMErrorOptions } from './llm-error.js';

/** The provider refused the input or output on safety grounds. */
export class ContentFilterError extends LLMError {
  constructor(message: string, options: LLMErrorOptions = {}) {
    super('llm.content_filter', message, { isRetryable: false, ...options });
    this.name = 'ContentFilterError';
  }
}
