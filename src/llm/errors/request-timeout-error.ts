import { LLMError, type LLMErrorOptions } from './llm-error.js';

/** The request exceeded its timeout (HTTP 408 or our own per-request timeout). Not retryable: a call that timed out would likely time out again. */
export class RequestTimeoutError extends LLMError {
  constructor(message: string, options: LLMErrorOptions = {}) {
    super('llm.timeout', message, { isRetryable: false, ...options });
    this.name = 'RequestTimeoutError';
  }
}
