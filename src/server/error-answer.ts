import { ZodError } from 'zod';
import { AttractorError } from '../shared/errors.js';
import { ApiError } from './api-error.js';

/** The HTTP status and `{error: {code, message, …}}` body an error thrown by a route answers with. */
export function errorAnswer(error: Error): { body: { error: Record<string, unknown> }; status: number } {
  if (error instanceof ApiError) return { body: error.body(), status: error.status };
  if (error instanceof ZodError) {
    const issues = error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    const message = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
    return { body: { error: { code: 'BAD_REQUEST', message, issues } }, status: 400 };
  }
  if (AttractorError.isInstance(error))
    return { body: { error: { code: error.code, message: error.describe() } }, status: 400 };
  return { body: { error: { code: 'INTERNAL', message: 'internal server error' } }, status: 500 };
}
