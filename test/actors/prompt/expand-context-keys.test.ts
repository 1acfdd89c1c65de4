import { describe, expect, it } from 'vitest';
import { expandContextKeys, formatContextValue } from '../../../src/actors/prompt/expand-context-keys.js';

describe('expandContextKeys', () => {
  it.each([
    ['Fix {bug} now', { bug: 'NPE' }, 'Fix NPE now'],
    ['Fix {bug} in {file}', { bug: 'NPE' }, 'Fix NPE in {file}'],
    ['{"json": {"a": 1}}', { json: 'x', a: 'y' }, '{"json": {"a": 1}}'],
    ['function f() { return 1; }', { return: 'x' }, 'function f() { return 1; }'],
    ['score {review.score}/10', { 'review.score': 7 }, 'score 7/10'],
    ['list {items}', { items: ['a', 'b'] }, 'list ["a","b"]'],
    ['empty {e}.', { e: '' }, 'empty .'],
    ['{a}{a}', { a: 'x' }, 'xx'],
    ['{{a}}', { a: 'x' }, '{x}'],
    ['no keys {x}', {}, 'no keys {x}'],
    ['proto {toString}', {}, 'proto {toString}'],
  ])('%j with %j → %j', (text, context, expected) => {
    expect(expandContextKeys(text, context)).toBe(expected);
  });

  it.each([
    ['text', 'text'],
    [3, '3'],
    [true, 'true'],
    [null, 'null'],
    [undefined, ''],
    [{ a: 1 }, '{"a":1}'],
  ])('formatContextValue(%j) = %j', (value, expected) => {
    expect(formatContextValue(value)).toBe(expected);
  });
});
