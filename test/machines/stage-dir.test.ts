import { describe, expect, it } from 'vitest';
import { safeSegment } from '../../src/machines/stage-dir.js';

describe('safeSegment', () => {
  it.each([
    ['a plain id', 'review', 'review'],
    ['unsafe characters', 'a b/c', 'a_b_c'],
    ['an empty name', '', 'pipeline'],
    ['an id of exactly 255 bytes', 'x'.repeat(255), 'x'.repeat(255)],
  ])('keeps %s as it was', (_what, name, segment) => {
    expect(safeSegment(name)).toBe(segment);
  });

  it('shortens an id too long for one path segment, keeping ids that share a start apart', () => {
    const a = safeSegment(`${'p'.repeat(300)}a`);
    const b = safeSegment(`${'p'.repeat(300)}b`);
    for (const segment of [a, b]) {
      expect(Buffer.byteLength(segment)).toBeLessThanOrEqual(255);
      expect(segment.startsWith('p'.repeat(200))).toBe(true);
    }
    expect(a).not.toBe(b);
    expect(safeSegment(`${'p'.repeat(300)}a`)).toBe(a);
  });
});
