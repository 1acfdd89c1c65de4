import { describe, expect, it } from 'vitest';
import { decodeDotString } from '../../../src/compiler/parse/decode-dot-string.js';

describe('decodeDotString', () => {
  it.each([
    ['plain', 'plain'],
    ['say \\"hi\\"', 'say "hi"'],
    ['a\\nb', 'a\nb'],
    ['a\\tb', 'a\tb'],
    ['a\\\\b', 'a\\b'],
    ['a\\\\nb', 'a\\nb'],
    ['l\\lr\\r', 'l\nr\n'],
    ['\\N and \\G', '\\N and \\G'],
    ['trailing\\', 'trailing\\'],
    ['\\\\\\"', '\\"'],
  ])('%j → %j', (body, expected) => {
    expect(decodeDotString(body)).toBe(expected);
  });
});
