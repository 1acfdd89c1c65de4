import { type BackoffSchedule, backoffDelayMs } from '../../shared/backoff-delay.js';

/** How often and how far apart a webhook is tried: the same for the file outbox and the database queue. */
export interface DeliveryPolicy {
  /** Attempts before a delivery is given up (default 6). */
  maxAttempts?: number;
  /** The waits between them (default 1 s, ×4, at most 5 minutes, with jitter). */
  schedule?: BackoffSchedule;
  random?: () => number;
  /** How soon a database deliverer notices a retry that has come due (default 1 s). */
  pollIntervalMs?: number;
}

const DEFAULT_MAX_ATTEMPTS = 6;
const DEFAULT_SCHEDULE: BackoffSchedule = { initialMs: 1_000, factor: 4, maxMs: 300_000, jitter: true };

/**
 * The wait before the next attempt of a delivery that has failed `attempts` times, or undefined when the
 * last of them was its last (it is given up).
 */
export function nextAttemptDelayMs(policy: DeliveryPolicy, attempts: number): number | undefined {
  if (attempts >= (policy.maxAttempts ?? DEFAULT_MAX_ATTEMPTS)) return undefined;
  return backoffDelayMs(policy.schedule ?? DEFAULT_SCHEDULE, attempts, policy.random ?? Math.random);
}
