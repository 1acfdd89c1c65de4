import { LLMError, type LLMErrorOptions } from './llm-error.js';

/** A stream broke mid-way or carried an error event. Retryable only if no data was consumed yet (the client decides). */
export class StreamError extends LLMError {
  constructor(message: string, options: LLMErrorOptions = {}) {
    super('llm.stream', message, { isRetryable: true, ...options });
    this.name = 'StreamError';
  }
}
