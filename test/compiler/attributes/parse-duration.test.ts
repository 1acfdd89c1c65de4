import { describe, expect, it } from 'vitest';
import { parseDurationMs } from '../../../src/compiler/attributes/parse-duration.js';

describe('parseDurationMs', () => {
  it.each([
    ['250ms', 250],
    ['900s', 900_000],
    ['1.5s', 1500],
    ['15m', 900_000],
    ['2h', 7_200_000],
    ['1d', 86_400_000],
    ['30', 30_000],
    ['0.5', 500],
    ['.5s', 500],
    [' 10S ', 10_000],
    ['0', 0],
  ])('%j is %i ms', (text, ms) => {
    expect(parseDurationMs(text)).toBe(ms);
  });

  it.each(['', 's', '5 minutes', '-5s', '1w', 'abc', '1.2.3s', '10ms5'])('%j is not a duration', (text) => {
    expect(parseDurationMs(text)).toBeUndefined();
  });
});
