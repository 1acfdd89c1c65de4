import { definedFields } from '../../shared/defined-fields.js';
import { AttractorError } from '../../shared/errors.js';

export interface LLMErrorOptions {
  /** Adapter name (`anthropic`, `openai`, ...) when the error came from a provider. */
  provider?: string;
  /** HTTP status, when there was one. */
  status?: number;
  /** The provider's own error type or code (`overloaded_error`, `rate_limit_exceeded`, ...). */
  errorCode?: string;
  /** Server-requested wait before retrying (Retry-After), in milliseconds. */
  retryAfterMs?: number;
  /** Overrides the subclass default. */
  isRetryable?: boolean;
  /** The provider's error body, for diagnosis. */
  raw?: unknown;
  cause?: unknown;
}

/**
 * Base of every error the LLM client throws on purpose. `isRetryable` is what the client's retry loop reads;
 * subclasses only fix the `code` and the default retryability, so callers branch on the class or on `code`.
 */
export class LLMError extends AttractorError {
  readonly provider?: string;
  readonly status?: number;
  readonly errorCode?: string;
  readonly retryAfterMs?: number;
  readonly isRetryable: boolean;
  readonly raw?: unknown;

  constructor(code: string, message: string, options: LLMErrorOptions = {}) {
    super(code, message, options.cause === undefined ? {} : { cause: options.cause });
    this.name = 'LLMError';
    this.isRetryable = options.isRetryable ?? false;
    if (options.provider !== undefined) this.provider = options.provider;
    if (options.status !== undefined) this.status = options.status;
    if (options.errorCode !== undefined) this.errorCode = options.errorCode;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    if (options.raw !== undefined) this.raw = options.raw;
  }

  static isLLMError(value: unknown): value is LLMError {
    return (
      AttractorError.isInstance(value) &&
      typeof (value as { isRetryable?: unknown }).isRetryable === 'boolean'
    );
  }

  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      isRetryable: this.isRetryable,
      ...definedFields({
        provider: this.provider,
        status: this.status,
        errorCode: this.errorCode,
        retryAfterMs: this.retryAfterMs,
        raw: this.raw,
      }),
    };
  }
}
