import type { StoredQuestion } from './run-record.js';

/**
 * When a stored question's gate times out (ms since the epoch): its first asking plus its
 * `human.timeout`, so a run released at the gate and continued elsewhere keeps the gate's clock;
 * undefined for a gate without a timeout.
 */
export function gateDeadline(
  question: Pick<StoredQuestion, 'asked_at' | 'timeout_seconds'>,
): number | undefined {
  if (question.timeout_seconds === undefined) return undefined;
  return Date.parse(question.asked_at) + question.timeout_seconds * 1000;
}

/** The earliest deadline among a run's pending questions: when its continuation takes a default. */
export function nextGateDeadline(questions: readonly StoredQuestion[]): number | undefined {
  let next: number | undefined;
  for (const question of questions) {
    if (question.status !== 'pending') continue;
    const deadline = gateDeadline(question);
    if (deadline !== undefined && (next === undefined || deadline < next)) next = deadline;
  }
  return next;
}
