import { AttractorError, type SourceSpan } from '../../shared/errors.js';

/**
 * The one error a DOT file that cannot be read at all produces: bad syntax, an unsupported graph kind,
 * binary input. The message is a single paragraph saying what was expected, and `location` points at
 * the user's text (not at our normalised copy of it).
 */
export class DotSyntaxError extends AttractorError {
  constructor(message: string, options: { location?: SourceSpan; cause?: unknown; code?: string } = {}) {
    super(options.code ?? 'DOT_SYNTAX', message, options);
    this.name = 'DotSyntaxError';
  }
}
