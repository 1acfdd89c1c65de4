import type { LLMErrorOptions } from './llm-error.js';
import { ProviderError } from './provider-error.js';

/** The provider refused the input or output on safety grounds. */
export class ContentFilterError extends ProviderError {
  constructor(message: string, options: LLMErrorOptions = {}) {
    super(message, { isRetryable: false, ...options }, 'llm.content_filter');
    this.name = 'ContentFilterError';
  }
}
