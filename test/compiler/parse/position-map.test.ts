import { describe, expect, it } from 'vitest';
import { PositionMap } from '../../../src/compiler/parse/position-map.js';

describe('PositionMap', () => {
  const source = 'ab\ncde\r\n\nf';

  it.each([
    [0, 1, 1],
    [1, 1, 2],
    [2, 1, 3],
    [3, 2, 1],
    [5, 2, 3],
    [6, 2, 4],
    [8, 3, 1],
    [9, 4, 1],
    [10, 4, 2],
    [99, 4, 2],
    [-5, 1, 1],
  ])('source offset %i is line %i column %i', (offset, line, column) => {
    expect(new PositionMap(source).locateSource(offset)).toEqual({ line, column });
  });

  it('maps output offsets through recorded segments', () => {
    const map = new PositionMap('0123456789');
    // output "01XY6789": "01" copied, "XY" replaced source 2..6, "6789" copied
    map.addSegment(0, 0);
    map.addSegment(2, 2);
    map.addSegment(4, 6);
    expect([0, 1, 2, 3, 4, 7].map((o) => map.toSourceOffset(o))).toEqual([0, 1, 2, 3, 6, 9]);
  });

  it('never maps a longer replacement past the start of the next chunk', () => {
    const map = new PositionMap('a\nb');
    // output 'a\\nb': the newline (1 char) became two characters
    map.addSegment(0, 0);
    map.addSegment(1, 1);
    map.addSegment(3, 2);
    expect(map.toSourceOffset(2)).toBe(2);
    expect(map.toSourceOffset(3)).toBe(2);
  });

  it('lets a later segment at the same output offset replace an empty one', () => {
    const map = new PositionMap('abcdef');
    map.addSegment(0, 0);
    map.addSegment(2, 2);
    map.addSegment(2, 4);
    expect(map.toSourceOffset(2)).toBe(4);
  });
});
