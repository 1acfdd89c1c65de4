import { expect, test } from 'vitest';
import { explainRoute } from '../../src/tui/explain-route.js';
import { graphOf } from './tui-fixtures.js';

const graph = graphOf(`digraph g {
  start [shape=Mdiamond]; exit [shape=Msquare]
  a; b; c; d; r
  start -> a
  a -> b [condition="outcome=success && context.ready=true"]
  a -> r [condition="outcome=fail"]
  a -> c [label="Ship it"]
  a -> d [weight=5]
  a -> exit
  b -> exit; c -> exit; d -> exit; r -> exit
}`);
const edges = graph.edges.filter((e) => e.source === 'a');

test.each([
  [{ target: 'b', status: 'success' }, 'condition outcome=success && context.ready=true'],
  [{ target: 'r', status: 'fail' }, 'failure edge: outcome=fail'],
  [{ target: 'c', status: 'success', preferredLabel: 'ship it' }, 'preferred label "ship it"'],
  [{ target: 'd', status: 'success' }, 'highest weight (5)'],
  [{ target: 'exit', status: 'success' }, 'suggested next node'],
  [{ target: 'start', status: 'success' }, 'jump (not an edge of this node)'],
])('%o: %s', (facts, expected) => {
  expect(explainRoute({ edges, ...facts })).toBe(expected);
});

test('a single unconditional edge is the only edge', () => {
  expect(
    explainRoute({ edges: graph.edges.filter((e) => e.source === 'start'), target: 'a', status: 'success' }),
  ).toBe('only edge');
});
