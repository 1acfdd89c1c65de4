import { describe, expect, it } from 'vitest';
import { AuthenticationError } from '../../src/llm/errors/authentication-error.js';
import { ConfigurationError } from '../../src/llm/errors/configuration-error.js';
import { NetworkError } from '../../src/llm/errors/network-error.js';
import { RateLimitError } from '../../src/llm/errors/rate-limit-error.js';
import { RequestTimeoutError } from '../../src/llm/errors/request-timeout-error.js';
import { ServerError } from '../../src/llm/errors/server-error.js';
import { createRetryPolicy, nextRetryDelay, retryDelayMs, withRetry } from '../../src/llm/retry.js';

const policy = createRetryPolicy({ maxRetries: 3, baseDelayMs: 1000, multiplier: 2, maxDelayMs: 5000 });

describe('retryDelayMs', () => {
  it.each([
    [0, 0.5, 1000],
    [1, 0.5, 2000],
    [2, 0.5, 4000],
    [3, 0.5, 5000],
    [0, 0, 500],
    [0, 0.999999, 1500],
  ])('attempt %i with random %f waits %f ms (jitter 0.5–1.5×, capped)', (attempt, random, expected) => {
    expect(retryDelayMs(policy, attempt, () => random)).toBeCloseTo(expected, 0);
  });

  it('has no jitter when disabled', () => {
    expect(retryDelayMs({ ...policy, jitter: false }, 1, () => 0)).toBe(2000);
  });
});

describe('nextRetryDelay', () => {
  it.each([
    ['429 without Retry-After backs off', new RateLimitError('x'), 0, 1000],
    ['429 with Retry-After waits exactly that', new RateLimitError('x', { retryAfterMs: 1234 }), 0, 1234],
    ['Retry-After beyond maxDelay gives up', new RateLimitError('x', { retryAfterMs: 60_000 }), 0, undefined],
    ['5xx is retried', new ServerError('x'), 1, 2000],
    ['network errors are retried', new NetworkError('x'), 2, 4000],
    ['401 is not retried', new AuthenticationError('x'), 0, undefined],
    ['timeouts are not retried', new RequestTimeoutError('x'), 0, undefined],
    ['retries run out', new ServerError('x'), 3, undefined],
    ['non-LLM errors (bugs) are not retried', new TypeError('bug'), 0, undefined],
  ])('%s', (_name, error, attempt, expected) => {
    expect(nextRetryDelay(policy, error, attempt, () => 0.5)).toBe(expected);
  });

  it('maxRetries 0 disables retries', () => {
    expect(nextRetryDelay(createRetryPolicy({ maxRetries: 0 }), new ServerError('x'), 0)).toBeUndefined();
  });
});

describe('createRetryPolicy', () => {
  it.each([
    [{ maxRetries: -1 }],
    [{ baseDelayMs: 0 }],
    [{ multiplier: 0 }],
    [{ baseDelayMs: 100, maxDelayMs: 50 }],
  ])('rejects %j', (overrides) => {
    expect(() => createRetryPolicy(overrides)).toThrow(ConfigurationError);
  });

  it('defaults to 2 retries, 1 s, ×2, 60 s, jitter', () => {
    expect(createRetryPolicy()).toEqual({
      maxRetries: 2,
      baseDelayMs: 1000,
      multiplier: 2,
      maxDelayMs: 60_000,
      jitter: true,
    });
  });
});

describe('withRetry', () => {
  it('retries retryable failures, reporting each retry, until success', async () => {
    const waits: number[] = [];
    const reported: Array<[number, number]> = [];
    let calls = 0;
    const result = await withRetry(
      async () => {
        calls++;
        if (calls < 3) throw new ServerError('boom');
        return 'ok';
      },
      {
        policy: { ...policy, jitter: false },
        wait: async (ms) => {
          waits.push(ms);
        },
        onRetry: (attempt, _error, delay) => reported.push([attempt, delay]),
      },
    );
    expect(result).toBe('ok');
    expect(waits).toEqual([1000, 2000]);
    expect(reported).toEqual([
      [1, 1000],
      [2, 2000],
    ]);
  });

  it('rethrows a non-retryable error at once', async () => {
    let calls = 0;
    const error = await withRetry(async () => {
      calls++;
      throw new AuthenticationError('no');
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(calls).toBe(1);
  });
});
