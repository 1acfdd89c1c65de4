/** An exponential backoff: the wait before the first retry, its growth per retry, its cap, and jitter. */
export interface BackoffSchedule {
  /** Delay before the first retry, in ms. */
  initialMs: number;
  /** Multiplier per further retry. */
  factor: number;
  /** Upper bound before jitter, in ms. */
  maxMs: number;
  /** Multiply by a uniform factor in [0.5, 1.5). */
  jitter: boolean;
}

/**
 * Milliseconds to wait before retry number `retry` (1 = the first): min(initial × factor^(retry−1), max),
 * with jitter times 0.5 + `random()`, rounded. The project's one backoff: a node's `retry_policy` preset
 * (`compiler/routing/retry-delay.ts`) and the LLM client's `RetryPolicy` (`llm/retry.ts`) are schedules of it.
 * `random` returns a number in [0, 1) (inject a seeded one in tests); a retry number below 1 or not a
 * number counts as the first.
 *
 * @example
 * backoffDelayMs({ initialMs: 200, factor: 2, maxMs: 60_000, jitter: true }, 3, () => 0.5); // 800
 */
export function backoffDelayMs(schedule: BackoffSchedule, retry: number, random: () => number): number {
  const n = Number.isFinite(retry) ? Math.max(1, Math.floor(retry)) : 1;
  // Exponent capped so a huge retry number cannot overflow to Infinity before the cap applies.
  const base = Math.min(schedule.initialMs * schedule.factor ** Math.min(n - 1, 64), schedule.maxMs);
  const factor = schedule.jitter ? 0.5 + Math.min(Math.max(random(), 0), 1) : 1;
  return Math.round(base * factor);
}
