import { LLMError, type LLMErrorOptions } from './llm-error.js';

/** The provider cannot honour the requested tool choice mode. */
export class UnsupportedToolChoiceError extends LLMError {
  constructor(message: string, options: LLMErrorOptions = {}) {
    super('llm.unsupported_tool_choice', message, { isRetryable: false, ...options });
    this.name = 'UnsupportedToolChoiceError';
  }
}
