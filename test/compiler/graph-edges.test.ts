import { describe, expect, it } from 'vitest';
import { incomingEdges, outgoingEdges } from '../../src/compiler/graph-edges.js';
import { buildGraph } from '../helpers/ir-builder.js';

describe('outgoingEdges / incomingEdges', () => {
  const graph = buildGraph({
    nodes: { start: { shape: 'Mdiamond' }, a: {}, b: {}, exit: { shape: 'Msquare' } },
    edges: ['start -> b', 'start -> a', 'b -> a', 'a -> exit', 'a -> a'],
  });

  it.each([
    ['start', ['b', 'a'], []],
    ['a', ['exit', 'a'], ['start', 'b', 'a']],
    ['exit', [], ['a']],
    ['nobody', [], []],
  ])('%s: out %j, in %j (declaration order)', (id, out, inn) => {
    expect(outgoingEdges(graph, id).map((e) => e.target)).toEqual(out);
    expect(incomingEdges(graph, id).map((e) => e.source)).toEqual(inn);
  });
});
