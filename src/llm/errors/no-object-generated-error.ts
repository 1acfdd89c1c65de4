import { LLMError, type LLMErrorOptions } from './llm-error.js';

/** generateObject/streamObject got output that is not JSON or does not match the schema. Not retried. */
export class NoObjectGeneratedError extends LLMError {
  /** The raw text the model produced. */
  readonly text: string;

  constructor(message: string, text: string, options: LLMErrorOptions = {}) {
    super('llm.no_object_generated', message, { isRetryable: false, ...options });
    this.name = 'NoObjectGeneratedError';
    this.text = text;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), text: this.text };
  }
}
