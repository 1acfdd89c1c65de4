import { AttractorError } from '../../shared/errors.js';

/**
 * A `model_stylesheet` that does not parse. `line`/`column` are 1-based within the stylesheet text
 * (the `stylesheet_syntax` lint rule reports them together with the graph attribute's location).
 */
export class StylesheetSyntaxError extends AttractorError {
  readonly line: number;
  readonly column: number;
  /** The message without the position. */
  readonly detail: string;

  constructor(message: string, position: { line: number; column: number }) {
    super(
      'STYLESHEET_SYNTAX',
      `model_stylesheet line ${position.line}, column ${position.column}: ${message}`,
    );
    this.name = 'StylesheetSyntaxError';
    this.detail = message;
    this.line = position.line;
    this.column = position.column;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), line: this.line, column: this.column };
  }
}
