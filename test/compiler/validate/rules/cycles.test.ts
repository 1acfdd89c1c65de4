import { describe, expect, it } from 'vitest';
import { indexGraph } from '../../../../src/compiler/validate/graph-index.js';
import { cyclesRule } from '../../../../src/compiler/validate/rules/cycles.js';
import type { EdgeSpec, LintGraphSpec } from '../../../helpers/lint-graph.js';
import { lintGraph } from '../../../helpers/lint-graph.js';

const work = { prompt: 'Work.' };

/** start -> a -> b -> c -> done, plus the given loop edges and node overrides. */
function pipeline(loop: EdgeSpec[], nodes: LintGraphSpec['nodes'] = {}, attrs: LintGraphSpec['attrs'] = {}) {
  return lintGraph({
    attrs,
    nodes: { start: { shape: 'Mdiamond' }, a: work, b: work, c: work, done: { shape: 'Msquare' }, ...nodes },
    edges: [['start', 'a'], ['a', 'b'], ['b', 'c'], ['c', 'done'], ...loop],
  });
}

function run(graph: ReturnType<typeof lintGraph>) {
  return cyclesRule.check(graph, indexGraph(graph));
}

describe('cycles', () => {
  it.each([
    { name: 'no loop', graph: pipeline([]) },
    { name: 'back edge with a condition', graph: pipeline([['c', 'a', { condition: 'outcome=fail' }]]) },
    { name: 'loop_restart back edge', graph: pipeline([['c', 'a', { loop_restart: true }]]) },
    { name: 'llm_decide back edge', graph: pipeline([['c', 'a', { llm_decide: true }]]) },
    {
      name: 'back edge to the node retry_target',
      graph: pipeline([['c', 'a']], { c: { ...work, retry_target: 'a' } }),
    },
    { name: 'back edge to the graph retry_target', graph: pipeline([['c', 'a']], {}, { retry_target: 'a' }) },
    { name: 'through a human gate', graph: pipeline([['c', 'a']], { b: { shape: 'hexagon' } }) },
    { name: 'through a diamond router', graph: pipeline([['c', 'a']], { b: { shape: 'diamond' } }) },
    {
      name: 'through a manager loop',
      graph: pipeline([['c', 'a']], { b: { shape: 'house', 'stack.child_dotfile': 'x.dot' } }),
    },
    {
      name: 'labelled choice among several edges (preferred_label routing)',
      graph: pipeline([['c', 'a', { label: 'revise' }]]),
    },
  ])('does not warn: $name', ({ graph }) => {
    expect(run(graph)).toEqual([]);
  });

  it('warns once for an unconditional 3-cycle, naming its nodes, at the first node', () => {
    const findings = run(pipeline([['c', 'a']]));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ rule: 'cycles', severity: 'warning', node_id: 'a' });
    expect(findings[0]!.message).toContain('"a", "b", "c"');
    expect(findings[0]!.loc).toEqual(pipeline([]).nodes.find((node) => node.id === 'a')!.loc);
  });

  it('warns for an unconditional self loop', () => {
    const findings = run(pipeline([['b', 'b']]));
    expect(findings.map((f) => f.node_id)).toEqual(['b']);
  });

  it('a label on the only outgoing edge is not a choice', () => {
    const graph = lintGraph({
      nodes: { start: { shape: 'Mdiamond' }, a: work, b: work, done: { shape: 'Msquare' } },
      edges: [
        ['start', 'a'],
        ['a', 'b'],
        ['b', 'a', { label: 'again' }],
        ['a', 'done', { condition: 'outcome=success' }],
      ],
    });
    // The condition on a -> done is outside the loop; inside it, nothing controls a <-> b.
    expect(run(graph).map((f) => f.node_id)).toEqual(['a']);
  });

  it('reports each independent loop once', () => {
    const findings = run(
      pipeline([
        ['b', 'a'],
        ['c', 'c'],
      ]),
    );
    expect(findings.map((f) => f.node_id)).toEqual(['a', 'c']);
  });

  it('warns when a deliberate loop has no edge leaving it', () => {
    const graph = lintGraph({
      nodes: { start: { shape: 'Mdiamond' }, a: work, b: work, done: { shape: 'Msquare' } },
      edges: [
        ['start', 'a'],
        ['a', 'b', { condition: 'outcome=success' }],
        ['b', 'a', { condition: 'outcome=fail' }],
        ['start', 'done'],
      ],
    });
    const findings = run(graph);
    expect(findings).toHaveLength(1);
    expect(findings[0]!.message).toContain('no edge leaving it');
  });

  it('lists at most five nodes of a long loop', () => {
    const ids = Array.from({ length: 8 }, (_, i) => `n${i}`);
    const graph = lintGraph({
      nodes: { start: { shape: 'Mdiamond' }, done: { shape: 'Msquare' } },
      edges: [
        ['start', 'n0'],
        ...ids.map((id, i): EdgeSpec => [id, ids[(i + 1) % ids.length]!]),
        ['n7', 'done', { condition: 'outcome=success' }],
      ],
    });
    const [finding] = run(graph);
    expect(finding!.message).toContain('"n0", "n1", "n2", "n3", "n4" and 3 more');
  });
});
