import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/agent/session/canonical-json.js';
import { sameJson } from '../../../src/agent/session/same-json.js';
import { random, reordered, value } from './random-json.js';

/** What sameJson must agree with whenever it gives an answer. */
const sameText = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

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
