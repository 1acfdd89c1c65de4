import { LLMError, type LLMErrorOptions } from './llm-error.js';

/** The client is not set up for this request: no adapter for the model, a missing API key, a closed client. */
export class ConfigurationError extends LLMError {
  constructor(message: string, options: LLMErrorOptions = {}) {
    super('llm.configuration', message, { isRetryable: false, ...options });
    this.name = 'ConfigurationError';
  }
}
