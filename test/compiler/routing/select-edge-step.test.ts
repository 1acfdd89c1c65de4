import { describe, expect, it } from 'vitest';
import type { EdgeAttrs } from '../../../src/compiler/ir.js';
import type { Outcome } from '../../../src/compiler/outcome.js';
import { type EdgeSelectionStep, nextStep, selectEdgeStep } from '../../../src/compiler/routing.js';
import { buildGraph, edgesFrom } from '../../helpers/ir-builder.js';

type Row = [
  name: string,
  edges: Array<[target: string, attrs?: EdgeAttrs]>,
  outcome: Outcome,
  llmChoice: string | undefined,
  expected: [target: string, step: EdgeSelectionStep],
];

const ok: Outcome = { status: 'success' };

describe('selectEdgeStep — which of the steps chose the edge', () => {
  it.each<Row>([
    ['a true condition', [['a'], ['b', { condition: 'outcome=success' }]], ok, undefined, ['b', 'condition']],
    [
      'the router model',
      [
        ['a', { llm_decide: true }],
        ['b', { llm_decide: true }],
      ],
      ok,
      'b',
      ['b', 'llm_choice'],
    ],
    [
      'the preferred label',
      [
        ['a', { label: 'No' }],
        ['b', { label: '[Y] Yes' }],
      ],
      { status: 'success', preferred_label: 'yes' },
      undefined,
      ['b', 'preferred_label'],
    ],
    [
      'a suggested next id',
      [['a'], ['b']],
      { status: 'success', suggested_next_ids: ['b'] },
      undefined,
      ['b', 'suggested_next'],
    ],
    ['the higher weight', [['a'], ['b', { weight: 2 }]], ok, undefined, ['b', 'weight']],
    ['a lone edge counts as weight', [['only']], ok, undefined, ['only', 'weight']],
    ['equal weights: lexical', [['zeta'], ['alpha']], ok, undefined, ['alpha', 'lexical']],
    [
      'lexical only among the top weight',
      [['zeta', { weight: 3 }], ['alpha'], ['beta']],
      ok,
      undefined,
      ['zeta', 'weight'],
    ],
  ])('%s', (_name, edges, outcome, llmChoice, [target, step]) => {
    const graph = buildGraph({ edges: edges.map(([to, attrs]) => ['n', to, attrs ?? {}]) });
    const chosen = selectEdgeStep({
      edges: edgesFrom(graph, 'n'),
      outcome,
      context: {},
      ...(llmChoice ? { llmChoice } : {}),
    });
    expect(chosen && [chosen.edge.target, chosen.step]).toEqual([target, step]);
  });

  it('nextStep reports next_node for an outcome naming an edge target, condition for a failure edge', () => {
    const graph = buildGraph({
      edges: [
        ['n', 'a', {}],
        ['n', 'b', {}],
        ['n', 'fix', { condition: 'outcome=fail' }],
      ],
    });
    const node = graph.nodes.find((candidate) => candidate.id === 'n');
    if (!node) throw new Error('no node n');
    const named = nextStep({ graph, node, outcome: { status: 'success', next_node: 'b' }, context: {} });
    expect(named.kind === 'edge' && [named.edge.target, named.step]).toEqual(['b', 'next_node']);
    const failed = nextStep({ graph, node, outcome: { status: 'fail' }, context: {} });
    expect(failed.kind === 'edge' && [failed.edge.target, failed.step]).toEqual(['fix', 'condition']);
  });
});
