import { describe, expect, it } from 'vitest';
import { humanGateQuestion } from '../../../src/actors/handlers/human-gate-question.js';
import type { EdgeAttrs, NodeAttrs } from '../../../src/compiler/ir.js';
import { makeEdge, makeGraph, makeNode } from '../helpers/graph-builders.js';

const REVIEW_EDGES: Array<[string, EdgeAttrs]> = [
  ['ship', { label: '[A] Approve' }],
  ['fix', { label: '[R] Revise' }],
  ['fix', { label: '[T] Try again' }],
  ['abandon', {}],
];

function gate(attrs: NodeAttrs = {}, edges = REVIEW_EDGES) {
  const node = makeNode('review', { shape: 'hexagon', label: 'Review the draft', ...attrs });
  const graph = makeGraph({
    nodes: [node, makeNode('ship'), makeNode('fix'), makeNode('abandon')],
    edges: edges.map(([target, edgeAttrs]) => makeEdge('review', target, edgeAttrs)),
  });
  return { node, graph };
}

describe('humanGateQuestion', () => {
  it('offers one option per outgoing edge, even between the same two nodes', () => {
    const { node, graph } = gate();
    expect(humanGateQuestion(node, graph)).toEqual({
      text: 'Review the draft',
      type: 'multiple_choice',
      stage: 'review',
      options: [
        { key: 'A', label: '[A] Approve', target: 'ship' },
        { key: 'R', label: '[R] Revise', target: 'fix' },
        { key: 'T', label: '[T] Try again', target: 'fix' },
        { key: 'A', label: 'abandon', target: 'abandon' },
      ],
    });
  });

  it.each<[string, string, string]>([
    ['Yes', 'No', 'yes_no'],
    ['[A] Approve', '[R] Reject', 'yes_no'],
    ['No', 'Yes', 'yes_no'],
    ['Approve', 'Later', 'multiple_choice'],
    ['Yes', 'Yes', 'multiple_choice'],
  ])('%j / %j is a %s question', (first, second, type) => {
    const { node, graph } = gate({}, [
      ['ship', { label: first }],
      ['fix', { label: second }],
    ]);
    expect(humanGateQuestion(node, graph).type).toBe(type);
  });

  it('carries the timeout and default choice, and a default text', () => {
    const { node, graph } = gate({ label: '', 'human.timeout': 500, 'human.default_choice': 'R' });
    expect(humanGateQuestion(node, graph)).toMatchObject({
      text: 'Select an option:',
      timeoutMs: 500,
      defaultChoice: 'R',
    });
  });

  it('treats human.timeout=0 as no timeout, like node timeouts', () => {
    const { node, graph } = gate({ 'human.timeout': 0 });
    expect(humanGateQuestion(node, graph)).not.toHaveProperty('timeoutMs');
  });
});
