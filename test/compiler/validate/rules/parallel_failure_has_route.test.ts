import { describe, expect, it } from 'vitest';
import { indexGraph } from '../../../../src/compiler/validate/graph-index.js';
import { parallelFailureHasRouteRule } from '../../../../src/compiler/validate/rules/parallel_failure_has_route.js';
import type { EdgeSpec, LintGraphSpec } from '../../../helpers/lint-graph.js';
import { lintGraph } from '../../../helpers/lint-graph.js';

const work = { prompt: 'Work.' };

/** start -> fan -> {a, b} -> join -> done, plus the given edges and node overrides. */
function pipeline(extra: EdgeSpec[] = [], nodes: LintGraphSpec['nodes'] = {}, joinEdges?: EdgeSpec[]) {
  return lintGraph({
    nodes: {
      start: { shape: 'Mdiamond' },
      fan: { shape: 'component' },
      a: work,
      b: work,
      join: { shape: 'tripleoctagon' },
      fix: work,
      done: { shape: 'Msquare' },
      ...nodes,
    },
    edges: [
      ['start', 'fan'],
      ['fan', 'a'],
      ['fan', 'b'],
      ['a', 'join'],
      ['b', 'join'],
      ...(joinEdges ?? [['join', 'done'] as EdgeSpec]),
      ['fix', 'done'],
      ...extra,
    ],
  });
}

const check = (graph: ReturnType<typeof lintGraph>) =>
  parallelFailureHasRouteRule.check(graph, indexGraph(graph));
const FAIL_EDGE: EdgeSpec = ['join', 'fix', { condition: 'outcome=fail' }];

describe('parallel_failure_has_route', () => {
  it.each([
    {
      name: 'wait_all, no route anywhere',
      graph: pipeline(),
      why: /join_policy=wait_all: it fails when every branch fails/,
    },
    {
      name: 'fail_fast',
      graph: pipeline([], { fan: { shape: 'component', error_policy: 'fail_fast' } }),
      why: /error_policy=fail_fast/,
    },
    {
      name: 'k_of_n needing both',
      graph: pipeline([], { fan: { shape: 'component', join_policy: 'k_of_n', join_k: 2 } }),
      why: /fewer than 2 succeed/,
    },
    {
      name: 'a fan-in edge that tests something else',
      graph: pipeline([], {}, [
        ['join', 'done', { condition: 'outcome=success' }],
        ['join', 'fix', { condition: 'context.x=1' }],
      ]),
      why: /every branch fails/,
    },
  ])('warns: $name', ({ graph, why }) => {
    const findings = check(graph);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      rule: 'parallel_failure_has_route',
      node_id: 'fan',
      severity: 'warning',
    });
    expect(findings[0]?.message).toMatch(why);
    expect(findings[0]?.message).toMatch(/neither it nor its fan-in "join" routes a failure/);
    expect(findings[0]?.fix).toMatch(/join -> <node> \[condition="outcome=fail"\]/);
  });

  it('without a fan-in, the fix is a retry target', () => {
    const graph = lintGraph({
      nodes: {
        start: { shape: 'Mdiamond' },
        fan: { shape: 'component' },
        a: work,
        done: { shape: 'Msquare' },
      },
      edges: [
        ['start', 'fan'],
        ['fan', 'a'],
        ['a', 'done'],
      ],
    });
    const [finding] = check(graph);
    expect(finding?.message).toMatch(/it has no fan-in and routes no failure/);
    expect(finding?.fix).toMatch(/retry_target="<node>"/);
  });

  it.each([
    {
      name: 'a fail edge at the fan-in',
      graph: pipeline([], {}, [['join', 'done', { condition: 'outcome=success' }], FAIL_EDGE]),
    },
    {
      name: 'outcome!=success at the fan-in',
      graph: pipeline([], {}, [
        ['join', 'done', { condition: 'outcome=success' }],
        ['join', 'fix', { condition: 'outcome!=success' }],
      ]),
    },
    {
      name: 'a retry_target on the parallel node',
      graph: pipeline([], { fan: { shape: 'component', retry_target: 'fix' } }),
    },
    {
      name: 'a fallback_retry_target on the fan-in',
      graph: pipeline([], { join: { shape: 'tripleoctagon', fallback_retry_target: 'fix' } }),
    },
    { name: 'wait_all with a branch that cannot fail', graph: pipeline([], { b: { shape: 'diamond' } }) },
    {
      name: 'first_success with a branch that cannot fail',
      graph: pipeline([], {
        fan: { shape: 'component', join_policy: 'first_success' },
        b: { shape: 'diamond' },
      }),
    },
  ])('quiet: $name', ({ graph }) => {
    expect(check(graph)).toEqual([]);
  });
});
