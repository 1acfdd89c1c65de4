import { describe, expect, it } from 'vitest';
import { resolveFidelity, resolveThreadId, subgraphClass } from '../../../src/compiler/fidelity.js';
import type { EdgeAttrs, GraphAttrs, NodeAttrs } from '../../../src/compiler/ir.js';
import { buildGraph, edgesFrom, nodeOf } from '../../helpers/ir-builder.js';

function setup(graphAttrs: GraphAttrs, nodeAttrs: NodeAttrs, edgeAttrs?: EdgeAttrs, subgraph?: string) {
  const graph = buildGraph({
    attrs: graphAttrs,
    nodes: { prev: {}, n: { ...nodeAttrs, ...(subgraph ? { subgraph } : {}) } },
    edges: [['prev', 'n', edgeAttrs ?? {}]],
  });
  return { graph, node: nodeOf(graph, 'n'), edge: edgeAttrs ? edgesFrom(graph, 'prev')[0] : undefined };
}

describe('resolveFidelity — edge, node, graph, compact', () => {
  it.each<[string, GraphAttrs, NodeAttrs, EdgeAttrs | undefined, string]>([
    ['default is compact', {}, {}, undefined, 'compact'],
    ['graph default', { default_fidelity: 'truncate' }, {}, undefined, 'truncate'],
    [
      'node over graph',
      { default_fidelity: 'truncate' },
      { fidelity: 'summary:low' },
      undefined,
      'summary:low',
    ],
    [
      'edge over node',
      { default_fidelity: 'truncate' },
      { fidelity: 'summary:low' },
      { fidelity: 'full' },
      'full',
    ],
    [
      'invalid edge value skipped',
      {},
      { fidelity: 'summary:medium' },
      { fidelity: 'everything' },
      'summary:medium',
    ],
    ['invalid node value skipped', { default_fidelity: 'full' }, { fidelity: 'summary' }, undefined, 'full'],
    ['invalid graph value skipped', { default_fidelity: 'nope' }, {}, undefined, 'compact'],
    ['edge without fidelity falls through', {}, { fidelity: 'summary:high' }, {}, 'summary:high'],
  ])('%s', (_name, graphAttrs, nodeAttrs, edgeAttrs, expected) => {
    const { graph, node, edge } = setup(graphAttrs, nodeAttrs, edgeAttrs);
    expect(resolveFidelity({ graph, node, ...(edge ? { edge } : {}) })).toBe(expected);
  });

  it('full degrades once to summary:high after a resume', () => {
    const { graph, node } = setup({}, { fidelity: 'full' });
    expect(resolveFidelity({ graph, node, afterResume: true })).toBe('summary:high');
    expect(resolveFidelity({ graph, node, afterResume: false })).toBe('full');
    const other = setup({}, { fidelity: 'truncate' });
    expect(resolveFidelity({ graph: other.graph, node: other.node, afterResume: true })).toBe('truncate');
  });
});

describe('resolveThreadId — node, edge, graph, subgraph class, previous node', () => {
  it.each<
    [string, GraphAttrs, NodeAttrs, EdgeAttrs | undefined, string | undefined, string | undefined, string]
  >([
    [
      'node thread_id first',
      { default_thread_id: 'g' },
      { thread_id: 'nt' },
      { thread_id: 'et' },
      'Loop A',
      'prev',
      'nt',
    ],
    ['then edge thread_id', { default_thread_id: 'g' }, {}, { thread_id: 'et' }, 'Loop A', 'prev', 'et'],
    ['then graph default_thread_id', { default_thread_id: 'g' }, {}, {}, 'Loop A', 'prev', 'g'],
    ['then the subgraph class', {}, {}, undefined, 'Code Review!', 'prev', 'code-review'],
    ['then the previous node', {}, {}, undefined, undefined, 'prev', 'prev'],
    ['else the node itself', {}, {}, undefined, undefined, undefined, 'n'],
    [
      'blank values are skipped',
      { default_thread_id: ' ' },
      { thread_id: '' },
      undefined,
      undefined,
      'prev',
      'prev',
    ],
  ])('%s', (_name, graphAttrs, nodeAttrs, edgeAttrs, subgraph, previousNodeId, expected) => {
    const { graph, node, edge } = setup(graphAttrs, nodeAttrs, edgeAttrs, subgraph);
    expect(
      resolveThreadId({
        graph,
        node,
        ...(edge ? { edge } : {}),
        ...(previousNodeId ? { previousNodeId } : {}),
      }),
    ).toBe(expected);
  });

  it.each([
    ['Loop A', 'loop-a'],
    ['Code Review', 'code-review'],
    ['  Build & Test  ', '-build--test-'],
  ])('subgraphClass(%j) = %j', (label, expected) => {
    expect(subgraphClass(label)).toBe(expected);
  });
});
