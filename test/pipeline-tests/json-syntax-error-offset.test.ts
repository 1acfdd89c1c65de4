import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonSyntaxErrorOffset } from '../../src/pipeline-tests/json-syntax-error-offset.js';

const parses = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe('jsonSyntaxErrorOffset', () => {
  it.each([
    ['{"a": [1, 2]}', undefined],
    ['{"a": [1, 2],}', 13],
    ['"a\\qb"', 2],
    ['[,]', 1],
    ['{"a" 1}', 5],
    ['{"a": tru}', 6],
    ['{"a": 1} x', 9],
    ['{"a": "b', 8],
    ['', 0],
  ])('%j: %s', (text, offset) => {
    expect(jsonSyntaxErrorOffset(text)).toBe(offset);
  });

  it('agrees with JSON.parse on whether text is JSON (values, and values with a character cut out)', () => {
    fc.assert(
      fc.property(fc.json(), fc.nat(), (text, cut) => {
        expect(jsonSyntaxErrorOffset(text)).toBeUndefined();
        const at = cut % Math.max(1, text.length);
        const broken = text.slice(0, at) + text.slice(at + 1);
        expect(jsonSyntaxErrorOffset(broken) === undefined).toBe(parses(broken));
      }),
      { numRuns: 500 },
    );
  });
});
