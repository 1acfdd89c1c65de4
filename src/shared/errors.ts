import { definedFields } from './defined-fields.js';
/**
 * The one error base of Attractor. Every error we throw on purpose is an AttractorError with a stable
 * `code`, so the CLI can print one clear paragraph (no stack) and library users can branch on `code`.
 */
export interface SourceSpan {
  file?: string;
  line: number;
  column: number;
}

const marker = Symbol.for('attractor.error');

export class AttractorError extends Error {
  readonly [marker] = true;
  readonly code: string;
  readonly location?: SourceSpan;

  constructor(code: string, message: string, options: { cause?: unknown; location?: SourceSpan } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AttractorError';
    this.code = code;
    if (options.location) this.location = options.location;
  }

  /** Works across package copies (instanceof does not). */
  static isInstance(value: unknown): value is AttractorError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }

  /** `file:line:col: message` when a location is known, else the message. */
  describe(): string {
    const loc = this.location;
    if (!loc) return this.message;
    return `${loc.file ?? '<input>'}:${loc.line}:${loc.column}: ${this.message}`;
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      ...definedFields({ location: this.location }),
    };
  }
}
