import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/agent/session/canonical-json.js';
import { jsonDigest } from '../../../src/agent/session/json-digest.js';
import { random, reordered, value } from './random-json.js';

describe('jsonDigest', () => {
  it.each([
    ['key order', { a: 1, b: [1, { c: 2, d: 3 }] }, { b: [1, { d: 3, c: 2 }], a: 1 }],
    ['integer-like keys', { 10: 'x', 9: 'y' }, { 9: 'y', 10: 'x' }],
    ['zero and minus zero (both "0")', { n: 0 }, { n: -0 }],
    ['parsed and built', JSON.parse('{"path":"a.ts","limit":10}'), { limit: 10, path: 'a.ts' }],
  ])('is the same for the same text: %s', (_, a, b) => {
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(jsonDigest(a)).toBe(jsonDigest(b));
    expect(Number.isInteger(jsonDigest(a))).toBe(true);
  });

  // What the loop detector meets call after call: the digests alone must tell these apart.
  it.each([
    ['another number', { i: 1 }, { i: 2 }],
    ['a fraction', { i: 1 }, { i: 1.5 }],
    ['another path', { path: 'src/a.ts' }, { path: 'src/b.ts' }],
    ['another length', { text: 'abc' }, { text: 'abcd' }],
    ['another key', { a: 1 }, { b: 1 }],
    ['a value moved to another key', { a: 1, b: 2 }, { a: 2, b: 1 }],
    ['an extra key', { a: 1 }, { a: 1, b: 1 }],
    ['array order', { list: [1, 2] }, { list: [2, 1] }],
    ['true and false', { on: true }, { on: false }],
    ['null and an empty object', { x: null }, { x: {} }],
    ['an empty array and an empty object', [], {}],
  ])('tells %s apart', (_, a, b) => {
    expect(jsonDigest(a)).not.toBe(jsonDigest(b));
  });

  it.each([
    ['an undefined value', { a: undefined }],
    ['a hole', Object.assign(new Array(2), { 1: 1 })],
    ['Infinity', { a: Number.POSITIVE_INFINITY }],
    ['a function', { a: () => 1 }],
    ['a Date', { at: new Date(0) }],
    ['an object with no prototype', Object.assign(Object.create(null), { a: 1 })],
    ['a __proto__ key', JSON.parse('{"__proto__": {"x": 1}, "a": 1}')],
  ])('gives no digest for what JSON rewrites or drops: %s', (_, data) => {
    expect(jsonDigest(data)).toBeUndefined();
  });

  it.each(Array.from({ length: 20 }, (_, seed) => seed))(
    'never tells equal canonical texts apart on random data, seed %i',
    (seed) => {
      const next = random(seed + 100);
      let equal = 0;
      let apart = 0;
      for (let i = 0; i < 500; i++) {
        const a = value(next, 0);
        const b = next() < 0.3 ? reordered(a) : value(next, 0);
        const same = canonicalJson(a) === canonicalJson(b);
        if (same) {
          equal++;
          expect(jsonDigest(b), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(jsonDigest(a));
        } else if (jsonDigest(a) !== jsonDigest(b)) apart++;
      }
      expect(equal).toBeGreaterThan(50);
      // Not a proof of anything, but a digest that rarely differs would save nothing.
      expect(apart).toBeGreaterThan((500 - equal) * 0.9);
    },
  );
});
