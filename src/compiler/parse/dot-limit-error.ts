import type { SourceSpan } from '../../shared/errors.js';
import { DotSyntaxError } from './dot-syntax-error.js';
import type { ParseLimits } from './parse-limits.js';

/** A safety cap of {@link ParseLimits} was exceeded. A subclass so callers catching DotSyntaxError see it too. */
export class DotLimitError extends DotSyntaxError {
  readonly limit: keyof ParseLimits;
  readonly max: number;

  constructor(
    limit: keyof ParseLimits,
    max: number,
    what: string,
    options: { location?: SourceSpan; cause?: unknown } = {},
  ) {
    super(
      `${what} exceeds the parser limit ${limit}=${max}. If the file is genuine, raise it with ` +
        `parseDot(source, { limits: { ${limit}: <larger number> } }).`,
      { ...options, code: 'DOT_LIMIT' },
    );
    this.name = 'DotLimitError';
    this.limit = limit;
    this.max = max;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), limit: this.limit, max: this.max };
  }
}
