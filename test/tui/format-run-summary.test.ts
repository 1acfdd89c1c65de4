import { expect, test } from 'vitest';
import { formatRunSummary } from '../../src/tui/format-run-summary.js';
import { initialRunState, reduceRunState } from '../../src/tui/reduce-run-state.js';
import { ev, graphOf, runToGate } from './tui-fixtures.js';

test('the summary left on screen: totals, then one plain line per node that ran, with the edge taken', () => {
  const graph = graphOf();
  const events = [
    ...runToGate(),
    ev('interview.complete', 'review', { key: 'A' }),
    ev('node.complete', 'review', { status: 'success', preferred_label: '[A] Approve' }),
    ev('node.start', 'done', { attempt: 1 }),
    ev('node.complete', 'done', { status: 'success' }),
    ev('pipeline.finalize', undefined, { status: 'completed', quality: 'degraded' }),
  ];
  const state = events.reduce((s, e) => reduceRunState(graph, s, e), initialRunState(graph));
  const text = formatRunSummary(state, 0);
  expect(text).not.toMatch(/\u001b\[/);
  expect(text.split('\n')).toEqual([
    expect.stringMatching(/^release: done \(degraded\) in \d+\.\ds, \$0\.0123$/),
    '  ✓ start               1.0s            → plan',
    '  ✓ Plan the change     2.0s   $0.0123  → implement',
    '  ✓ implement           5.0s            → test',
    '  ✓ test                1.0s            → fan',
    '  ◐ fan                10.0s            → join',
    '  ✓ lint                1.0s',
    '  ✗ types               1.0s',
    '  ✓ join                1.0s            → review',
    '  ✓ Review              2.0s            → done',
    '  ✓ done                1.0s',
    '',
  ]);
});

test('a run that ended at a dead end says where, under its degraded head line', () => {
  const graph = graphOf();
  const events = [
    ...runToGate(),
    ev('pipeline.complete', 'review', {}),
    ev('pipeline.finalize', undefined, {
      status: 'completed',
      quality: 'degraded',
      reason: 'ended at review: no edge matched',
    }),
  ];
  const state = events.reduce((s, e) => reduceRunState(graph, s, e), initialRunState(graph));
  expect(state.failure).toBeUndefined();
  const lines = formatRunSummary(state, 0).trimEnd().split('\n');
  expect(lines[0]).toMatch(/^release: done \(degraded\)/);
  expect(lines.at(-1)).toBe('  ended at review: no edge matched');
});

test('a node the run stopped in is marked stopped, not with a frozen spinner', () => {
  const graph = graphOf();
  const events = [
    ...runToGate(),
    ev('pipeline.finalize', undefined, { status: 'cancelled', quality: 'failed' }),
  ];
  const state = events.reduce((s, e) => reduceRunState(graph, s, e), initialRunState(graph));
  const text = formatRunSummary(state, 0);
  expect(text).not.toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
  expect(text).toMatch(/^ {2}■ Review +stopped$/m);
});
