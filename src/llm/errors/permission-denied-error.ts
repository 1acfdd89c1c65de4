import { LLMError, type LLMErrorOptions } from './llm-error.js';

/** HTTP 403: the key is valid but may not use this model or feature. */
export class PermissionDeniedError extends LLMError {
  constructor(message: string, options: LLMErrorOptions = {}) {
    super('llm.permission_denied', message, { isRetryable: false, ...options });
    this.name = 'PermissionDeniedError';
  }
}
