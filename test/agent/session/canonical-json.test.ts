import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/agent/session/canonical-json.js';

describe('canonicalJson', () => {
  it.each([
    ['sorted keys (the fast path)', { a: 1, b: 'x' }, '{"a":1,"b":"x"}'],
    ['unsorted keys', { b: 'x', a: 1 }, '{"a":1,"b":"x"}'],
    ['unsorted keys one level down', { a: { z: 1, y: 2 } }, '{"a":{"y":2,"z":1}}'],
    ['objects inside arrays', { a: [{ y: 2, x: 1 }, 3] }, '{"a":[{"x":1,"y":2},3]}'],
    ['integer-like keys (numeric order, as JSON.stringify gives)', { 10: 'a', 9: 'b' }, '{"9":"b","10":"a"}'],
    ['primitives and null', [null, true, 'x', 1.5], '[null,true,"x",1.5]'],
    ['undefined values are dropped', { b: undefined, a: 1 }, '{"a":1}'],
    ['an empty object', {}, '{}'],
  ])('%s', (_name, value, expected) => {
    expect(canonicalJson(value)).toBe(expected);
  });

  it('a Date or class instance keeps the general path (own keys only, sorted)', () => {
    class Point {
      y = 2;
      x = 1;
    }
    expect(canonicalJson({ p: new Point() })).toBe('{"p":{"x":1,"y":2}}');
    expect(canonicalJson({ when: new Date(0) })).toBe('{"when":{}}');
  });

  it('gives equal text for equal arguments whatever their key order', () => {
    const a = { path: 'a.py', limit: 10, opts: { deep: true, all: false } };
    const b = { opts: { all: false, deep: true }, limit: 10, path: 'a.py' };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
  });
});
