import { AttractorError } from '../shared/errors.js';

/** An error with the HTTP status it answers with; the body is `{error: {code, message, ...details}}`. */
export class ApiError extends AttractorError {
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;

  constructor(status: number, code: string, message: string, details?: Record<string, unknown>) {
    super(code, message);
    this.name = 'ApiError';
    this.status = status;
    this.details = details;
  }

  body(): { error: Record<string, unknown> } {
    return { error: { code: this.code, message: this.message, ...(this.details ?? {}) } };
  }
}
