import { AuthenticationError } from './authentication-error.js';
import { InvalidRequestError } from './invalid-request-error.js';
import type { LLMError, LLMErrorOptions } from './llm-error.js';
import { NotFoundError } from './not-found-error.js';
import { PermissionDeniedError } from './permission-denied-error.js';
import { RateLimitError } from './rate-limit-error.js';
import { RequestTimeoutError } from './request-timeout-error.js';
import { ServerError } from './server-error.js';

type ErrorClass = new (message: string, options?: LLMErrorOptions) => LLMError;

/** google.rpc.Code names, as Gemini puts them in `error.status`, to our classes. */
const BY_STATUS: Record<string, ErrorClass> = {
  NOT_FOUND: NotFoundError,
  INVALID_ARGUMENT: InvalidRequestError,
  UNAUTHENTICATED: AuthenticationError,
  PERMISSION_DENIED: PermissionDeniedError,
  RESOURCE_EXHAUSTED: RateLimitError,
  UNAVAILABLE: ServerError,
  DEADLINE_EXCEEDED: RequestTimeoutError,
  INTERNAL: ServerError,
};

/** The class a gRPC status string names, or undefined for statuses the table does not list. */
export function errorClassForGrpcStatus(status: string | undefined): ErrorClass | undefined {
  return status === undefined ? undefined : BY_STATUS[status];
}
