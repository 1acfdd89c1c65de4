import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stronglyConnectedComponents } from '../../../src/compiler/validate/strongly-connected-components.js';

function scc(ids: string[], edges: [string, string][]): string[][] {
  const out = new Map<string, string[]>();
  for (const [a, b] of edges) out.set(a, [...(out.get(a) ?? []), b]);
  return stronglyConnectedComponents(ids, (id) => out.get(id) ?? [])
    .map((component) => [...component].sort())
    .sort((x, y) => x[0]!.localeCompare(y[0]!));
}

/** Reachability by brute force, to check the components against their definition. */
function reaches(ids: string[], edges: [string, string][], from: string): Set<string> {
  const seen = new Set([from]);
  const stack = [from];
  while (stack.length > 0) {
    const id = stack.pop()!;
    for (const [a, b] of edges) {
      if (a === id && ids.includes(b) && !seen.has(b)) {
        seen.add(b);
        stack.push(b);
      }
    }
  }
  return seen;
}

describe('stronglyConnectedComponents', () => {
  it.each([
    {
      name: 'chain',
      ids: ['a', 'b', 'c'],
      edges: [
        ['a', 'b'],
        ['b', 'c'],
      ],
      expected: [['a'], ['b'], ['c']],
    },
    {
      name: 'triangle',
      ids: ['a', 'b', 'c'],
      edges: [
        ['a', 'b'],
        ['b', 'c'],
        ['c', 'a'],
      ],
      expected: [['a', 'b', 'c']],
    },
    {
      name: 'two loops joined by one edge',
      ids: ['a', 'b', 'c', 'd'],
      edges: [
        ['a', 'b'],
        ['b', 'a'],
        ['b', 'c'],
        ['c', 'd'],
        ['d', 'c'],
      ],
      expected: [
        ['a', 'b'],
        ['c', 'd'],
      ],
    },
    { name: 'self loop', ids: ['a'], edges: [['a', 'a']], expected: [['a']] },
    {
      name: 'edges to unknown ids are ignored',
      ids: ['a'],
      edges: [
        ['a', 'x'],
        ['x', 'a'],
      ],
      expected: [['a']],
    },
  ] as { name: string; ids: string[]; edges: [string, string][]; expected: string[][] }[])(
    '$name',
    ({ ids, edges, expected }) => {
      expect(scc(ids, edges)).toEqual(expected);
    },
  );

  it('survives a 50,000-node cycle without recursion', () => {
    const n = 50_000;
    const ids = Array.from({ length: n }, (_, i) => `n${i}`);
    const components = stronglyConnectedComponents(ids, (id) => [`n${(Number(id.slice(1)) + 1) % n}`]);
    expect(components).toHaveLength(1);
    expect(components[0]).toHaveLength(n);
  });

  it('agrees with mutual reachability on random graphs', () => {
    const arbitraryGraph = fc.integer({ min: 1, max: 9 }).chain((n) =>
      fc.record({
        ids: fc.constant(Array.from({ length: n }, (_, i) => `v${i}`)),
        edges: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 20 }),
      }),
    );
    fc.assert(
      fc.property(arbitraryGraph, ({ ids, edges }) => {
        const named = edges.map(([a, b]) => [`v${a}`, `v${b}`] as [string, string]);
        const components = scc(ids, named);
        expect(components.flat().sort()).toEqual([...ids].sort());
        for (const x of ids) {
          for (const y of ids) {
            const together = components.some((c) => c.includes(x) && c.includes(y));
            const mutual = reaches(ids, named, x).has(y) && reaches(ids, named, y).has(x);
            expect(together).toBe(mutual);
          }
        }
      }),
    );
  });
});
