import { describe, expect, it } from 'vitest';
import { TailBuffer } from '../../../src/actors/tool/tail-buffer.js';

describe('TailBuffer', () => {
  it.each([
    [['abc'], 10, 'abc', false],
    [['abcdef', 'ghij'], 4, 'ghij', true],
    [['ab', 'cd', 'ef'], 3, 'def', true],
    [['0123456789'], 4, '6789', true],
  ])('%j with limit %d keeps %j', (chunks, limit, expected, truncated) => {
    const tail = new TailBuffer(limit);
    for (const chunk of chunks) tail.push(Buffer.from(chunk));
    expect(tail.toString()).toBe(expected);
    expect(tail.truncated).toBe(truncated);
  });

  it('drops a multi-byte character cut in half instead of garbling it', () => {
    const tail = new TailBuffer(4);
    tail.push(Buffer.from('aé€'));
    // 'é€' is 5 bytes: the cut keeps the last byte of é, which must go.
    expect(tail.toString()).toBe('€');
  });

  it('stays bounded when fed far more than its limit', () => {
    const tail = new TailBuffer(1024);
    for (let i = 0; i < 10_000; i++) tail.push(Buffer.alloc(100, 'x'));
    expect(tail.toString()).toHaveLength(1024);
  });
});
