import { describe, expect, it } from 'vitest';
import { maxRetriesFor, retryPresetDelayMs } from '../../../src/compiler/routing.js';
import { buildGraph, nodeOf } from '../../helpers/ir-builder.js';

/** Deterministic LCG so the jitter test is reproducible. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const noJitter = () => 0.5;

describe('retryPresetDelayMs', () => {
  it.each<[string | undefined, number[]]>([
    ['standard', [200, 400, 800, 1600, 3200]],
    [undefined, [200, 400, 800, 1600, 3200]],
    ['unknown', [200, 400, 800, 1600, 3200]],
    ['STANDARD', [200, 400, 800, 1600, 3200]],
    ['aggressive', [500, 1000, 2000, 4000, 8000]],
    ['linear', [500, 500, 500]],
    ['patient', [2000, 6000, 18000, 54000, 60000]],
    ['none', [0, 0, 0]],
  ])('%s → %j (jitter factor 1)', (preset, delays) => {
    expect(delays.map((_, i) => retryPresetDelayMs(preset, i + 1, noJitter))).toEqual(delays);
  });

  it('caps at 60 s even for huge attempt numbers', () => {
    expect(retryPresetDelayMs('standard', 20, noJitter)).toBe(60_000);
    expect(retryPresetDelayMs('standard', 1e9, noJitter)).toBe(60_000);
  });

  it('jitter stays within 0.5–1.5× and is reproducible with a seeded random', () => {
    const a = Array.from({ length: 200 }, (_, i) => retryPresetDelayMs('standard', (i % 5) + 1, seeded(42)));
    const random = seeded(7);
    for (let attempt = 1; attempt <= 8; attempt++) {
      const base = Math.min(200 * 2 ** (attempt - 1), 60_000);
      const delay = retryPresetDelayMs('standard', attempt, random);
      expect(delay).toBeGreaterThanOrEqual(base * 0.5);
      expect(delay).toBeLessThanOrEqual(base * 1.5);
    }
    expect(
      Array.from({ length: 200 }, (_, i) => retryPresetDelayMs('standard', (i % 5) + 1, seeded(42))),
    ).toEqual(a);
    expect(retryPresetDelayMs('standard', 1, () => 0)).toBe(100);
    expect(retryPresetDelayMs('standard', 1, () => 0.999999)).toBe(300);
  });

  it('treats attempt < 1 as the first retry', () => {
    expect(retryPresetDelayMs('standard', 0, noJitter)).toBe(200);
    expect(retryPresetDelayMs('standard', Number.NaN, noJitter)).toBe(200);
  });
});

describe('maxRetriesFor', () => {
  it.each<[string, number | undefined, number | undefined, number]>([
    ['node value', 3, 50, 3],
    ['explicit 0 means no retries', 0, 50, 0],
    ['graph default when unset', undefined, 50, 50],
    ['0 when neither is set', undefined, undefined, 0],
    ['negative clamps to 0', -2, undefined, 0],
  ])('%s', (_name, nodeValue, graphValue, expected) => {
    const graph = buildGraph({
      attrs: graphValue === undefined ? {} : { default_max_retries: graphValue },
      nodes: { n: nodeValue === undefined ? {} : { max_retries: nodeValue } },
    });
    expect(maxRetriesFor(nodeOf(graph, 'n'), graph)).toBe(expected);
  });
});
