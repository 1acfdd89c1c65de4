import { type BackoffSchedule, backoffDelayMs } from '../../shared/backoff-delay.js';
import type { PipelineGraph, PipelineNode } from '../ir.js';

/** A named backoff a node chooses with `retry_policy`. */
export interface RetryPreset extends BackoffSchedule {
  /** Attempts usually paired with the preset; informative only (see `maxRetriesFor`). */
  suggestedMaxAttempts: number;
}

/**
 * Backoff presets, selected by the node attribute `retry_policy` (alias `retry_preset`), docs/semantics.md
 * Delay before retry n (1-based) = min(initial × factor^(n−1), 60 s) × jitter.
 *
 * | preset     | initial | factor | delays before jitter (ms)       |
 * |------------|---------|--------|---------------------------------|
 * | none       | –       | –      | 0 (retry at once)               |
 * | standard   | 200     | 2      | 200, 400, 800, 1600, 3200, …    |
 * | aggressive | 500     | 2      | 500, 1000, 2000, 4000, 8000, …  |
 * | linear     | 500     | 1      | 500, 500, 500, …                |
 * | patient    | 2000    | 3      | 2000, 6000, 18000, 54000, 60000 |
 *
 * Unset or unknown names use `standard` (the `retry_policy` value is not validated here).
 * The preset chooses delays only; how many retries happen is `maxRetriesFor`.
 */
export const RETRY_PRESETS: Readonly<Record<string, RetryPreset>> = {
  none: { initialMs: 0, factor: 1, maxMs: 0, jitter: false, suggestedMaxAttempts: 1 },
  standard: { initialMs: 200, factor: 2, maxMs: 60_000, jitter: true, suggestedMaxAttempts: 5 },
  aggressive: { initialMs: 500, factor: 2, maxMs: 60_000, jitter: true, suggestedMaxAttempts: 5 },
  linear: { initialMs: 500, factor: 1, maxMs: 60_000, jitter: true, suggestedMaxAttempts: 3 },
  patient: { initialMs: 2000, factor: 3, maxMs: 60_000, jitter: true, suggestedMaxAttempts: 3 },
};

export const RETRY_PRESET_NAMES = Object.keys(RETRY_PRESETS);

export function resolveRetryPreset(name: string | undefined): RetryPreset {
  const key = name?.trim().toLowerCase() ?? '';
  return (Object.hasOwn(RETRY_PRESETS, key) ? RETRY_PRESETS[key] : RETRY_PRESETS['standard']) as RetryPreset;
}

/**
 * Milliseconds a node whose `retry_policy` is `preset` waits before retry number `attempt` (1 = the
 * first retry): the preset's schedule of the one backoff (`shared/backoff-delay.ts`).
 * `random` returns a number in [0, 1) (inject a seeded one in tests).
 *
 * @example
 * retryPresetDelayMs('standard', 3, () => 0.5); // 800
 */
export function retryPresetDelayMs(
  preset: string | undefined,
  attempt: number,
  random: () => number,
): number {
  return backoffDelayMs(resolveRetryPreset(preset), attempt, random);
}

/**
 * Additional attempts a node gets after its first (docs/semantics.md): the node's `max_retries`, else the
 * graph's `default_max_retries`, else 0. Negative or fractional values are floored at 0.
 */
export function maxRetriesFor(node: PipelineNode, graph: PipelineGraph): number {
  const value = node.attrs.max_retries ?? graph.attrs.default_max_retries ?? 0;
  return Number.isFinite(value) ? Math.max(0, Math.floor(value)) : 0;
}
