import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../../src/compiler/outcome.js';
import { nextStep, routeFailure } from '../../../src/compiler/routing.js';
import { buildGraph, edgesFrom, nodeOf } from '../../helpers/ir-builder.js';

const graph = buildGraph({
  nodes: {
    work: { retry_target: 'plan', fallback_retry_target: 'start' },
    plain: {},
    fallbackOnly: { fallback_retry_target: 'plan' },
    flagged: { retry_target: 'plan' },
  },
  edges: [
    'start -> plan -> work',
    ['work', 'done', {}],
    ['work', 'fix', { condition: 'outcome=fail' }],
    ['work', 'audit', { condition: 'outcome=fail && context.audit', weight: 2 }],
    ['work', 'other', { condition: 'context.flag' }],
    ['plain', 'done', {}],
    ['plain', 'recover', { condition: 'outcome!=success' }],
    ['fallbackOnly', 'done', {}],
    ['flagged', 'happy', { condition: 'context.flag' }],
  ],
});

function step(nodeId: string, outcome: Outcome, context: Record<string, unknown> = {}) {
  const result = nextStep({ graph, node: nodeOf(graph, nodeId), outcome, context });
  return result.kind === 'edge' ? { kind: 'edge', target: result.edge.target } : result;
}

describe('nextStep', () => {
  it.each<[string, string, Outcome, Record<string, unknown>, unknown]>([
    ['success follows edge selection', 'work', { status: 'success' }, {}, { kind: 'edge', target: 'done' }],
    ['fail takes the outcome=fail edge', 'work', { status: 'fail' }, {}, { kind: 'edge', target: 'fix' }],
    [
      'fail picks the best true failure edge by weight',
      'work',
      { status: 'fail' },
      { audit: 'y' },
      { kind: 'edge', target: 'audit' },
    ],
    [
      'fail never takes a true condition that does not test outcome',
      'flagged',
      { status: 'fail' },
      { flag: 'y' },
      { kind: 'retry_target', target: 'plan', via: 'retry_target' },
    ],
    [
      'fail catches outcome!=success edges',
      'plain',
      { status: 'fail' },
      {},
      { kind: 'edge', target: 'recover' },
    ],
    [
      'an unconditional edge does not swallow a FAIL',
      'start',
      { status: 'fail', failure_reason: 'boom' },
      {},
      { kind: 'fail', reason: 'boom' },
    ],
    [
      'fail without a reason names the node',
      'start',
      { status: 'fail' },
      {},
      { kind: 'fail', reason: 'node "start" failed' },
    ],
    ['no edge after success ends the run', 'done', { status: 'success' }, {}, { kind: 'end' }],
    ['no edge after skipped ends the run', 'done', { status: 'skipped' }, {}, { kind: 'end' }],
    [
      'next_node override uses the edge to it when there is one',
      'work',
      { status: 'success', next_node: 'fix' },
      {},
      { kind: 'edge', target: 'fix' },
    ],
    [
      'next_node override jumps when there is no edge',
      'work',
      { status: 'fail', next_node: 'start' },
      {},
      { kind: 'jump', target: 'start' },
    ],
    [
      'next_node naming no node is ignored',
      'work',
      { status: 'success', next_node: 'ghost' },
      {},
      { kind: 'edge', target: 'done' },
    ],
    [
      'partial_success routes like success',
      'plain',
      { status: 'partial_success' },
      {},
      { kind: 'edge', target: 'recover' },
    ],
  ])('%s', (_name, nodeId, outcome, context, expected) => {
    expect(step(nodeId, outcome, context)).toEqual(expected);
  });
});

describe('routeFailure — chain', () => {
  it.each<[string, string, Record<string, unknown>, unknown]>([
    ['fail edge first', 'work', {}, 'edge:fix'],
    ['then retry_target', 'work-no-edge', {}, 'retry_target:plan'],
    ['then fallback_retry_target', 'fallbackOnly', {}, 'retry_target:plan'],
    ['else fail', 'plan', {}, 'fail:tests red'],
  ])('%s', (_name, nodeId, context, expected) => {
    const node = nodeOf(graph, nodeId === 'work-no-edge' ? 'work' : nodeId);
    const edges = nodeId === 'work-no-edge' ? [] : edgesFrom(graph, node.id);
    const route = routeFailure({
      node,
      edges,
      outcome: { status: 'fail', failure_reason: 'tests red' },
      context,
    });
    const text =
      route.kind === 'edge'
        ? `edge:${route.edge.target}`
        : route.kind === 'fail'
          ? `fail:${route.reason}`
          : `retry_target:${route.target}`;
    expect(text).toBe(expected);
  });

  it('retry_target wins over fallback', () => {
    const route = routeFailure({
      node: nodeOf(graph, 'work'),
      edges: [],
      outcome: { status: 'fail' },
      context: {},
    });
    expect(route).toEqual({ kind: 'retry_target', target: 'plan', via: 'retry_target' });
  });
});
