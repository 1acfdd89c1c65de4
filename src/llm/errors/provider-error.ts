import { LLMError, type LLMErrorOptions } from './llm-error.js';

/** A provider failure that fits no other class; retryable by default, per the public specification. */
export class ProviderError extends LLMError {
  constructor(message: string, options: LLMErrorOptions = {}) {
    super('llm.provider', message, { isRetryable: true, ...options });
    this.name = 'ProviderError';
  }
}
