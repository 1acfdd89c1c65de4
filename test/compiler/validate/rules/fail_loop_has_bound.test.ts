import { describe, expect, it } from 'vitest';
import { indexGraph } from '../../../../src/compiler/validate/graph-index.js';
import { failLoopHasBoundRule } from '../../../../src/compiler/validate/rules/fail_loop_has_bound.js';
import type { EdgeSpec, LintGraphSpec } from '../../../helpers/lint-graph.js';
import { lintGraph } from '../../../helpers/lint-graph.js';

const work = { prompt: 'Work.' };

/** start -> implement -> test -> done, plus the given edges, node overrides and graph attributes. */
function pipeline(extra: EdgeSpec[], nodes: LintGraphSpec['nodes'] = {}, attrs: LintGraphSpec['attrs'] = {}) {
  return lintGraph({
    attrs,
    nodes: {
      start: { shape: 'Mdiamond' },
      implement: work,
      test: { shape: 'parallelogram', tool_command: 'npm test' },
      done: { shape: 'Msquare' },
      ...nodes,
    },
    edges: [
      ['start', 'implement'],
      ['implement', 'test'],
      ['test', 'done', { condition: 'outcome=success' }],
      ...extra,
    ],
  });
}

const check = (graph: ReturnType<typeof lintGraph>) => failLoopHasBoundRule.check(graph, indexGraph(graph));
const FIX: EdgeSpec = ['test', 'implement', { condition: 'outcome=fail' }];

describe('fail_loop_has_bound', () => {
  it.each([
    {
      name: 'a fail edge back into the loop',
      graph: pipeline([FIX]),
      route: '"test" -> "implement" [condition="outcome=fail"]',
    },
    {
      name: 'outcome!=success back into the loop',
      graph: pipeline([['test', 'implement', { condition: 'outcome!=success' }]]),
      route: '"test" -> "implement" [condition="outcome!=success"]',
    },
    {
      name: 'a retry_target into the loop',
      graph: pipeline([], { test: { shape: 'parallelogram', tool_command: 'x', retry_target: 'implement' } }),
      route: '"test" -> "implement" (retry_target)',
    },
    {
      name: 'a node retrying itself',
      graph: pipeline([], { implement: { ...work, retry_target: 'implement' } }),
      route: '"implement" -> "implement" (retry_target)',
    },
    {
      name: "a human gate that also leads back into the loop, but not on the failure's way round",
      graph: pipeline(
        [
          FIX,
          ['test', 'gate', { condition: 'outcome=success' }],
          ['gate', 'implement', { label: '[R] Rework' }],
          ['gate', 'done', { label: '[S] Ship' }],
        ],
        { gate: { shape: 'hexagon' } },
      ),
      route: '"test" -> "implement" [condition="outcome=fail"]',
    },
    {
      name: 'max_visits on a node the failure does not go through',
      graph: pipeline([FIX, ['test', 'review', { condition: 'outcome=success' }], ['review', 'implement']], {
        review: { ...work, max_visits: 2 },
      }),
      route: '"test" -> "implement" [condition="outcome=fail"]',
    },
    {
      name: 'max_retries alone (each trip is a new visit)',
      graph: pipeline([FIX], { implement: { ...work, max_retries: 3 } }),
      route: '"test" -> "implement" [condition="outcome=fail"]',
    },
  ])('warns: $name', ({ graph, route }) => {
    const [finding, ...rest] = check(graph);
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ rule: 'fail_loop_has_bound', severity: 'warning' });
    expect(finding?.message).toContain(route);
    expect(finding?.message).toMatch(/^Nodes "implement", "test" form a loop|^Nodes "implement" form a loop/);
    expect(finding?.fix).toMatch(
      /Set max_visits on a node of the loop \(for example max_visits=3 on "implement"\)/,
    );
  });

  it.each([
    { name: 'no loop', graph: pipeline([]) },
    {
      name: 'max_visits on a node of the loop',
      graph: pipeline([FIX], { test: { shape: 'parallelogram', tool_command: 'x', max_visits: 3 } }),
    },
    { name: 'graph default_max_visits', graph: pipeline([FIX], {}, { default_max_visits: 3 }) },
    {
      name: 'a counter in the fail edge',
      graph: pipeline([
        ['test', 'implement', { condition: 'outcome=fail && internal.visit_count.implement<3' }],
      ]),
    },
    {
      name: 'an exit condition on a counter',
      graph: pipeline([FIX, ['test', 'done', { condition: 'context.attempts=5' }]]),
    },
    {
      name: 'a loop taken only on success',
      graph: pipeline([['test', 'implement', { condition: 'outcome=success && context.more_work' }]]),
    },
    {
      name: 'a human gate inside the loop',
      graph: pipeline(
        [
          ['test', 'gate', { condition: 'outcome=fail' }],
          ['gate', 'implement'],
        ],
        { gate: { shape: 'hexagon' } },
      ),
    },
  ])('quiet: $name', ({ graph }) => {
    expect(check(graph)).toEqual([]);
  });
});
