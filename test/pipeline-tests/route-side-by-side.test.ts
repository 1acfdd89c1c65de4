import { describe, expect, it } from 'vitest';
import { routeSideBySide } from '../../src/pipeline-tests/route-side-by-side.js';

describe('routeSideBySide', () => {
  it('marks the first step where the routes part, and pads the shorter one', () => {
    expect(
      routeSideBySide(['start', 'implement', 'exit'], ['start', 'implement', 'fix', 'implement', 'exit']),
    ).toBe(
      [
        '  #  expected   actual',
        '  1  start      start',
        '  2  implement  implement',
        '> 3  exit       fix',
        '  4  –          implement',
        '  5  –          exit',
      ].join('\n'),
    );
  });

  it('numbers ten steps and more in a column of their own width', () => {
    const route = Array.from({ length: 10 }, (_, i) => `n${i}`);
    const lines = routeSideBySide(route, [...route.slice(0, 9), 'x']).split('\n');
    expect(lines[0]).toBe('   #  expected  actual');
    expect(lines[1]).toBe('   1  n0        n0');
    expect(lines[10]).toBe('> 10  n9        x');
  });
});
