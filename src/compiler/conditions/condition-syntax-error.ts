import { AttractorError } from '../../shared/errors.js';

/**
 * A condition expression that does not parse. `column` is 1-based within the condition text (not the DOT
 * file): the `condition_syntax` lint rule maps it onto the edge's location.
 */
export class ConditionSyntaxError extends AttractorError {
  readonly column: number;
  readonly hint?: string;
  readonly condition: string;
  /** The message without the hint. */
  readonly detail: string;

  constructor(message: string, options: { condition: string; column: number; hint?: string }) {
    super('CONDITION_SYNTAX', options.hint ? `${message} (${options.hint})` : message);
    this.name = 'ConditionSyntaxError';
    this.detail = message;
    this.column = options.column;
    this.condition = options.condition;
    if (options.hint !== undefined) this.hint = options.hint;
  }

  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      column: this.column,
      condition: this.condition,
      ...(this.hint ? { hint: this.hint } : {}),
    };
  }
}
