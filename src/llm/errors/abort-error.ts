import { LLMError, type LLMErrorOptions } from './llm-error.js';

/** The caller aborted the request through its AbortSignal. */
export class AbortError extends LLMError {
  constructor(message: string, options: LLMErrorOptions = {}) {
    super('llm.aborted', message, { isRetryable: false, ...options });
    this.name = 'AbortError';
  }
}
