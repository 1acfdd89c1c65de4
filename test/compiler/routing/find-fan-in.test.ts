import { describe, expect, it } from 'vitest';
import { findFanIn } from '../../../src/compiler/routing/find-fan-in.js';
import { makeEdge, makeGraph, makeNode } from '../../actors/helpers/graph-builders.js';

const graph = makeGraph({
  nodes: [
    makeNode('a'),
    makeNode('b'),
    makeNode('b2'),
    makeNode('c'),
    makeNode('join', { shape: 'tripleoctagon' }),
    makeNode('later', { shape: 'tripleoctagon' }),
  ],
  edges: [
    makeEdge('a', 'join'),
    makeEdge('b', 'b2'),
    makeEdge('b2', 'join'),
    makeEdge('join', 'later'),
    makeEdge('c', 'later'),
  ],
});

describe('findFanIn', () => {
  it.each<[string[], string | undefined]>([
    [['a', 'b'], 'join'],
    [['a', 'b', 'c'], 'later'],
    [['c'], 'later'],
    [[], undefined],
  ])('from %j → %s', (starts, expected) => {
    expect(findFanIn(graph, starts)).toBe(expected);
  });

  it('is undefined without any fan-in node', () => {
    expect(findFanIn(makeGraph({ nodes: [makeNode('a')] }), ['a'])).toBeUndefined();
  });
});
