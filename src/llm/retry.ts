import { backoffDelayMs } from '../shared/backoff-delay.js';
import { ConfigurationError } from './errors/configuration-error.js';
import { LLMError } from './errors/llm-error.js';

/** The client's retry policy (2 retries, 1 s base, ×2, capped at 60 s, jitter 0.5–1.5×). */
export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  multiplier: number;
  maxDelayMs: number;
  jitter: boolean;
}

/** Called before each retry with the 1-based retry number, the error that caused it, and the wait. */
export type OnRetry = (attempt: number, error: LLMError, delayMs: number) => void;

export const defaultRetryPolicy: Readonly<RetryPolicy> = Object.freeze({
  maxRetries: 2,
  baseDelayMs: 1000,
  multiplier: 2,
  maxDelayMs: 60_000,
  jitter: true,
});

/** Fills defaults and rejects impossible values (bad input, so it throws). */
export function createRetryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  const policy = { ...defaultRetryPolicy, ...overrides };
  const problems: string[] = [];
  if (!Number.isInteger(policy.maxRetries) || policy.maxRetries < 0)
    problems.push('maxRetries must be an integer ≥ 0');
  if (!(policy.baseDelayMs > 0)) problems.push('baseDelayMs must be > 0');
  if (!(policy.multiplier > 0)) problems.push('multiplier must be > 0');
  if (!(policy.maxDelayMs >= policy.baseDelayMs)) problems.push('maxDelayMs must be ≥ baseDelayMs');
  if (problems.length > 0) throw new ConfigurationError(`Invalid retry policy: ${problems.join('; ')}`);
  return policy;
}

/**
 * Backoff before retry number `attempt` (0-based): min(base × multiplier^attempt, max) × U(0.5, 1.5), in
 * whole ms — the policy's schedule of the project's one backoff (`shared/backoff-delay.ts`).
 */
export function retryDelayMs(
  policy: RetryPolicy,
  attempt: number,
  random: () => number = Math.random,
): number {
  const schedule = {
    initialMs: policy.baseDelayMs,
    factor: policy.multiplier,
    maxMs: policy.maxDelayMs,
    jitter: policy.jitter,
  };
  return backoffDelayMs(schedule, attempt + 1, random);
}

/**
 * The wait before the next try, or undefined when the error must not be retried. A server's Retry-After is
 * honoured exactly (no jitter); one longer than maxDelayMs means "give up now" rather than stall the run.
 */
export function nextRetryDelay(
  policy: RetryPolicy,
  error: unknown,
  attempt: number,
  random?: () => number,
): number | undefined {
  if (!LLMError.isLLMError(error) || !error.isRetryable || attempt >= policy.maxRetries) return undefined;
  if (error.retryAfterMs !== undefined)
    return error.retryAfterMs <= policy.maxDelayMs ? error.retryAfterMs : undefined;
  return retryDelayMs(policy, attempt, random);
}

/** Resolves after `ms`, or rejects with the signal's reason when aborted first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface RetryOptions {
  policy?: RetryPolicy;
  onRetry?: OnRetry;
  signal?: AbortSignal;
  random?: () => number;
  /** Injectable for tests. */
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Runs `attempt` until it succeeds or fails with an error the policy will not retry. */
export async function withRetry<T>(
  attempt: (n: number) => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const policy = options.policy ?? defaultRetryPolicy;
  const wait = options.wait ?? sleep;
  for (let n = 0; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      const delay = nextRetryDelay(policy, error, n, options.random);
      if (delay === undefined || options.signal?.aborted) throw error;
      options.onRetry?.(n + 1, error as LLMError, delay);
      await wait(delay, options.signal);
    }
  }
}
