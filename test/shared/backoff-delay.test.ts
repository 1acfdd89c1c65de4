import { describe, expect, it } from 'vitest';
import { type BackoffSchedule, backoffDelayMs } from '../../src/shared/backoff-delay.js';

const doubling: BackoffSchedule = { initialMs: 1000, factor: 2, maxMs: 5000, jitter: true };

describe('backoffDelayMs', () => {
  it.each<[string, BackoffSchedule, number, number, number]>([
    ['the first retry waits the initial delay', doubling, 1, 0.5, 1000],
    ['each retry multiplies it', doubling, 3, 0.5, 4000],
    ['up to the cap', doubling, 4, 0.5, 5000],
    ['a huge retry number stays at the cap', doubling, 1e9, 0.5, 5000],
    ['jitter at its low end halves it', doubling, 1, 0, 500],
    ['jitter at its high end, rounded', doubling, 1, 0.999999, 1500],
    ['a random out of range is clamped', doubling, 1, 7, 1500],
    ['without jitter random is not used', { ...doubling, jitter: false }, 2, 0, 2000],
    ['a retry number below 1 counts as the first', doubling, 0, 0.5, 1000],
    ['so does one that is not a number', doubling, Number.NaN, 0.5, 1000],
    ['a constant schedule', { initialMs: 500, factor: 1, maxMs: 60_000, jitter: false }, 9, 0, 500],
  ])('%s', (_name, schedule, retry, random, expected) => {
    expect(backoffDelayMs(schedule, retry, () => random)).toBe(expected);
  });
});
