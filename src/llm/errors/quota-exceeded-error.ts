import type { LLMErrorOptions } from './llm-error.js';
import { ProviderError } from './provider-error.js';

/** The account is out of credit or quota; waiting will not help. */
export class QuotaExceededError extends ProviderError {
  constructor(message: string, options: LLMErrorOptions = {}) {
    super(message, { isRetryable: false, ...options }, 'llm.quota_exceeded');
    this.name = 'QuotaExceededError';
  }
}
