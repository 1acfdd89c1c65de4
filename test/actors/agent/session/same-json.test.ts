import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../../src/actors/agent/session/canonical-json.js';
import { sameJson } from '../../../../src/actors/agent/session/same-json.js';

/** What sameJson must agree with whenever it gives an answer. */
const sameText = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Random JSON data from a small vocabulary, so equal values (in any key order) come up often. */
function value(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 2 ? 6 : 8));
  switch (pick) {
    case 0:
      return ['a', 'b', 'a:b', ''][Math.floor(next() * 4)];
    case 1:
      return [0, -0, 1, 2.5, 1e21][Math.floor(next() * 5)];
    case 2:
      return next() < 0.5;
    case 3:
      return null;
    case 4:
      return Math.floor(next() * 3);
    case 5:
      return 'x';
    case 6:
      return Array.from({ length: Math.floor(next() * 3) }, () => value(next, depth + 1));
    default: {
      const keys = ['p', 'q', 'r', '1', '10'].filter(() => next() < 0.5);
      if (next() < 0.5) keys.reverse();
      return Object.fromEntries(keys.map((key) => [key, value(next, depth + 1)]));
    }
  }
}

/** The same data with every object's keys inserted in another order. */
function reordered(data: unknown): unknown {
  if (Array.isArray(data)) return data.map(reordered);
  if (data === null || typeof data !== 'object') return data;
  return Object.fromEntries(
    Object.entries(data)
      .reverse()
      .map(([key, item]) => [key, reordered(item)]),
  );
}

describe('sameJson', () => {
  it.each([
    ['equal primitives', 'a', 'a', true],
    ['different strings', 'a', 'b', false],
    ['zero and minus zero (both "0")', 0, -0, true],
    ['number and string', 1, '1', false],
    ['null and false', null, false, false],
    ['key order', { a: 1, b: [1, { c: 2, d: 3 }] }, { b: [1, { d: 3, c: 2 }], a: 1 }, true],
    ['integer-like keys', { 10: 'x', 9: 'y' }, { 9: 'y', 10: 'x' }, true],
    ['a missing key', { a: 1, b: 2 }, { a: 1 }, false],
    ['an extra key', { a: 1 }, { a: 1, b: 2 }, false],
    ['arrays of different length', [1, 2], [1, 2, 3], false],
    ['array and object', [], {}, false],
    ['nested difference', { a: { b: [1, 2] } }, { a: { b: [1, 3] } }, false],
  ])('%s', (_, a, b, expected) => {
    expect(sameJson(a, b)).toBe(expected);
    expect(sameJson(b, a)).toBe(expected);
    expect(sameText(a, b)).toBe(expected);
  });

  // What JSON.stringify rewrites or drops: sameJson leaves these to the texts instead of guessing.
  it.each([
    ['an undefined value against a missing key', { a: 1, b: undefined }, { a: 1 }],
    ['undefined against null in an array', [undefined], [null]],
    ['a hole against null', Object.assign(new Array(2), { 1: 1 }), [null, 1]],
    ['Infinity against null', { a: Number.POSITIVE_INFINITY }, { a: null }],
    ['NaN against NaN', Number.NaN, Number.NaN],
    ['a function value', { a: () => 1 }, {}],
    ['a Date', new Date(0), '1970-01-01T00:00:00.000Z'],
    ['an object with no prototype', Object.assign(Object.create(null), { a: 1 }), { a: 1 }],
    ['a __proto__ key', JSON.parse('{"__proto__": {"x": 1}, "a": 1}'), { a: 1 }],
  ])('%s: no answer', (_, a, b) => {
    expect(sameJson(a, b)).toBeUndefined();
    expect(sameJson(b, a)).toBeUndefined();
  });

  it.each(Array.from({ length: 20 }, (_, seed) => seed))(
    'agrees with the canonical texts on random data, seed %i',
    (seed) => {
      const next = random(seed + 1);
      let equal = 0;
      for (let i = 0; i < 500; i++) {
        const a = value(next, 0);
        const b = next() < 0.3 ? reordered(a) : value(next, 0);
        const answer = sameJson(a, b);
        expect(answer, `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(sameText(a, b));
        if (answer) equal++;
      }
      expect(equal).toBeGreaterThan(50);
    },
  );
});
