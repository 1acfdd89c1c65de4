import type { Outcome } from '../compiler/outcome.js';

/**
 * The outcome of a handler that threw: RETRY when the error declares itself retryable (`isRetryable` /
 * `retryable`), else FAIL; the message is the failure reason.
 */
export function errorOutcome(error: unknown): Outcome {
  const message = error instanceof Error ? error.message : String(error);
  return isRetryableError(error)
    ? { status: 'retry', failure_reason: message }
    : { status: 'fail', failure_reason: message };
}

function isRetryableError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { isRetryable?: unknown; retryable?: unknown };
  return e.isRetryable === true || e.retryable === true;
}
