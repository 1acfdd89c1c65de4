import type { LLMErrorOptions } from './llm-error.js';
import { ProviderError } from './provider-error.js';

/** HTTP 403: the key is valid but may not use this model or feature. */
export class PermissionDeniedError extends ProviderError {
  constructor(message: string, options: LLMErrorOptions = {}) {
    super(message, { isRetryable: false, ...options }, 'llm.permission_denied');
    this.name = 'PermissionDeniedError';
  }
}
