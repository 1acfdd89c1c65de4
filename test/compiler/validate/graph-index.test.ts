import { describe, expect, it } from 'vitest';
import {
  findExitNodes,
  findStartNodes,
  indexGraph,
  isExitNode,
  isStartNode,
} from '../../../src/compiler/validate/graph-index.js';
import { type LintGraphSpec, lintGraph } from '../../helpers/lint-graph.js';

const ids = (nodes: { id: string }[]) => nodes.map((node) => node.id);

describe('indexGraph', () => {
  const graph = lintGraph({
    nodes: { begin: { shape: 'Mdiamond' }, a: {}, b: {}, finish: { shape: 'Msquare' } },
    edges: [
      ['begin', 'a'],
      ['a', 'b', { label: 'one' }],
      ['a', 'b', { label: 'two' }],
      ['b', 'finish'],
      ['b', 'ghost'],
    ],
    addImplicitNodes: false,
  });
  const index = indexGraph(graph);

  it('maps node ids to nodes', () => {
    expect([...index.nodes.keys()]).toEqual(['begin', 'a', 'b', 'finish']);
    expect(index.nodes.get('a')).toBe(graph.nodes[1]);
  });

  it('keeps parallel edges distinct, in declaration order', () => {
    expect(index.edgesFrom('a').map((edge) => edge.attrs.label)).toEqual(['one', 'two']);
    expect(index.edgesTo('b').map((edge) => edge.index)).toEqual([1, 2]);
  });

  it('indexes edges to undeclared nodes and returns empty lists for unknown ids', () => {
    expect(index.edgesTo('ghost').map((edge) => edge.source)).toEqual(['b']);
    expect(index.edgesFrom('finish')).toEqual([]);
    expect(index.edgesFrom('nope')).toEqual([]);
  });

  it('finds start and exit ids', () => {
    expect(index.startIds).toEqual(['begin']);
    expect(index.exitIds).toEqual(['finish']);
    expect(index.exitIdSet.has('finish')).toBe(true);
  });

  it('keeps the first of two declarations of the same id', () => {
    const twice = lintGraph({ nodes: { a: {} } });
    twice.nodes.push({ ...twice.nodes[0]!, attrs: { prompt: 'second' } });
    expect(indexGraph(twice).nodes.get('a')?.attrs.prompt).toBeUndefined();
  });
});

describe('start and exit detection', () => {
  it.each([
    { name: 'Mdiamond wins over the name', nodes: { start: {}, go: { shape: 'Mdiamond' } }, starts: ['go'] },
    { name: 'type=start counts', nodes: { go: { type: 'start' } }, starts: ['go'] },
    { name: 'by name `start`', nodes: { start: {}, other: {} }, starts: ['start'] },
    { name: 'by name `Start`', nodes: { Start: {} }, starts: ['Start'] },
    { name: 'both names', nodes: { start: {}, Start: {} }, starts: ['start', 'Start'] },
    {
      name: 'two Mdiamonds',
      nodes: { a: { shape: 'Mdiamond' }, b: { shape: 'Mdiamond' } },
      starts: ['a', 'b'],
    },
    { name: 'none (`START` is not a start name)', nodes: { START: {} }, starts: [] },
  ] as { name: string; nodes: LintGraphSpec['nodes']; starts: string[] }[])(
    'start: $name',
    ({ nodes, starts }) => {
      expect(ids(findStartNodes(lintGraph({ nodes })))).toEqual(starts);
    },
  );

  it.each([
    { name: 'Msquare wins over the names', nodes: { end: {}, done: { shape: 'Msquare' } }, exits: ['done'] },
    { name: 'type=exit counts', nodes: { done: { type: 'exit' } }, exits: ['done'] },
    { name: 'by names `exit` and `end`', nodes: { exit: {}, end: {}, x: {} }, exits: ['exit', 'end'] },
    {
      name: 'several Msquares',
      nodes: { ok: { shape: 'Msquare' }, ko: { shape: 'Msquare' } },
      exits: ['ok', 'ko'],
    },
    { name: 'none (`done` is not an exit name)', nodes: { done: {} }, exits: [] },
  ] as { name: string; nodes: LintGraphSpec['nodes']; exits: string[] }[])(
    'exit: $name',
    ({ nodes, exits }) => {
      expect(ids(findExitNodes(lintGraph({ nodes })))).toEqual(exits);
    },
  );

  it('isStartNode/isExitNode look at shape and type only', () => {
    const graph = lintGraph({
      nodes: { start: {}, exit: {}, s: { shape: 'Mdiamond' }, e: { shape: 'Msquare' }, t: { type: 'exit' } },
    });
    const byId = new Map(graph.nodes.map((node) => [node.id, node]));
    expect(isStartNode(byId.get('start')!)).toBe(false);
    expect(isStartNode(byId.get('s')!)).toBe(true);
    expect(isExitNode(byId.get('exit')!)).toBe(false);
    expect(isExitNode(byId.get('e')!)).toBe(true);
    expect(isExitNode(byId.get('t')!)).toBe(true);
  });
});
