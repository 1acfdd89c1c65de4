import { LLMError, type LLMErrorOptions } from './llm-error.js';

/** The account is out of credit or quota; waiting will not help. */
export class QuotaExceededError extends LLMError {
  constructor(message: string, options: LLMErrorOptions = {}) {
    super('llm.quota_exceeded', message, { isRetryable: false, ...options });
    this.name = 'QuotaExceededError';
  }
}
