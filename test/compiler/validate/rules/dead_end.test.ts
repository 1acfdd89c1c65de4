import { describe, expect, it } from 'vitest';
import { indexGraph } from '../../../../src/compiler/validate/graph-index.js';
import { deadEndRule } from '../../../../src/compiler/validate/rules/dead_end.js';
import type { EdgeSpec, LintGraphSpec } from '../../../helpers/lint-graph.js';
import { lintGraph } from '../../../helpers/lint-graph.js';

const work = { prompt: 'Work.' };

/** start -> check, then the given edges out of check (and whatever nodes they name). */
function pipeline(edges: EdgeSpec[], nodes: LintGraphSpec['nodes'] = {}) {
  return lintGraph({
    nodes: { start: { shape: 'Mdiamond' }, check: work, fix: work, done: { shape: 'Msquare' }, ...nodes },
    edges: [['start', 'check'], ['fix', 'done'], ...edges],
  });
}

const check = (graph: ReturnType<typeof lintGraph>) => deadEndRule.check(graph, indexGraph(graph));
const to = (target: string, condition: string): EdgeSpec => ['check', target, { condition }];

describe('dead_end', () => {
  it.each([
    {
      name: 'no outgoing edge at all',
      edges: [],
      message: /Node "check" has no outgoing edge and is not an exit: the run ends there/,
      fix: /Add an edge from "check" .*or make it an exit \(shape=Msquare\)/,
    },
    {
      name: 'only a fail edge',
      edges: [to('fix', 'outcome=fail')],
      message: /after outcome=success they can all be false/,
      fix: /Add an unconditional edge from "check" as the fallback \(for example check -> fix\)/,
    },
    {
      name: 'two values of a key that may be unset',
      edges: [to('done', 'context.verdict=pass'), to('fix', 'context.verdict=fail')],
      message: /\("context.verdict=pass", "context.verdict=fail"\)/,
      fix: /check -> done/,
    },
    {
      name: 'a success edge that also needs a context value',
      edges: [to('done', 'outcome=success && context.ready'), to('fix', 'outcome=fail')],
      message: /after outcome=success they can all be false/,
      fix: /check -> done/,
    },
    {
      name: 'outcome=success when the node may end partial (allow_partial)',
      edges: [to('done', 'outcome=success'), to('fix', 'outcome=fail')],
      nodes: { check: { ...work, allow_partial: true } },
      message: /after outcome=partial_success they can all be false/,
      fix: /check -> done/,
    },
    {
      name: 'numbers: below and above leave the value itself out',
      edges: [to('done', 'context.score>5'), to('fix', 'context.score<5')],
      message: /can all be false/,
      fix: /check -> done/,
    },
  ])('warns: $name', ({ edges, nodes, message, fix }) => {
    const findings = check(pipeline(edges, nodes));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ rule: 'dead_end', severity: 'warning', node_id: 'check' });
    expect(findings[0]?.message).toMatch(message);
    expect(findings[0]?.fix).toMatch(fix);
  });

  it.each([
    { name: 'an unconditional edge', edges: [['check', 'done'] as EdgeSpec] },
    {
      name: 'an unconditional edge beside a fail edge',
      edges: [['check', 'done'] as EdgeSpec, to('fix', 'outcome=fail')],
    },
    {
      name: 'success and fail edges (a tool node cannot end partial)',
      edges: [to('done', 'outcome=success'), to('fix', 'outcome=fail')],
    },
    {
      name: 'a key and its negation',
      edges: [to('done', 'context.verdict=pass'), to('fix', 'context.verdict!=pass')],
    },
    {
      name: 'contains and its negation',
      edges: [to('done', 'tool.output contains "id"'), to('fix', '!tool.output contains "id"')],
    },
    {
      name: 'a bare key and its negation',
      edges: [to('done', 'context.ready'), to('fix', '!context.ready')],
    },
    {
      name: 'numbers that meet',
      edges: [to('done', 'context.score>=5'), to('fix', '!(context.score>=5)')],
    },
    {
      name: 'an empty condition (always true)',
      edges: [to('done', 'outcome!=fail'), to('fix', 'outcome=fail')],
    },
    {
      name: 'outcome=success || outcome=partial_success with allow_partial',
      edges: [to('done', 'outcome=success || outcome=partial_success'), to('fix', 'outcome=fail')],
      nodes: { check: { ...work, allow_partial: true } },
    },
    {
      name: 'a condition that does not parse (condition_syntax reports it)',
      edges: [to('done', 'outcome==success')],
    },
  ])('quiet: $name', ({ edges, nodes }) => {
    expect(check(pipeline(edges, nodes))).toEqual([]);
  });

  it('leaves unreachable nodes to reachability (one finding per place)', () => {
    const graph = pipeline([['check', 'done']], { lost: work });
    expect(check(graph)).toEqual([]);
  });

  it('leaves exits (also exits by name) and parallel nodes alone', () => {
    const graph = lintGraph({
      nodes: {
        start: { shape: 'Mdiamond' },
        fan: { shape: 'component' },
        a: work,
        join: { shape: 'tripleoctagon' },
        exit: work,
      },
      edges: [
        ['start', 'fan'],
        ['fan', 'a'],
        ['a', 'join'],
        ['join', 'exit'],
      ],
    });
    expect(check(graph)).toEqual([]);
  });
});
