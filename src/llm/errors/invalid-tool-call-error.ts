import { LLMError, type LLMErrorOptions } from './llm-error.js';

/** The model called a tool with arguments that are not a JSON object. */
export class InvalidToolCallError extends LLMError {
  readonly toolName: string;

  constructor(message: string, toolName: string, options: LLMErrorOptions = {}) {
    super('llm.invalid_tool_call', message, { isRetryable: false, ...options });
    this.name = 'InvalidToolCallError';
    this.toolName = toolName;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), toolName: this.toolName };
  }
}
