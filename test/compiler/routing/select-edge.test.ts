import { describe, expect, it } from 'vitest';
import type { EdgeAttrs } from '../../../src/compiler/ir.js';
import type { Outcome } from '../../../src/compiler/outcome.js';
import { llmDecideCandidates, routerCandidates, selectEdge } from '../../../src/compiler/routing.js';
import { buildGraph, edgesFrom } from '../../helpers/ir-builder.js';

type Row = [
  name: string,
  edges: Array<[target: string, attrs?: EdgeAttrs]>,
  outcome: Outcome,
  expected: string | undefined /* `target` or `target#index` */,
];

function pick(edges: Row[1], outcome: Outcome, context: Record<string, unknown> = {}, llmChoice?: string) {
  const graph = buildGraph({ edges: edges.map(([target, attrs]) => ['n', target, attrs ?? {}]) });
  const chosen = selectEdge({
    edges: edgesFrom(graph, 'n'),
    outcome,
    context,
    ...(llmChoice ? { llmChoice } : {}),
  });
  return chosen && `${chosen.target}#${chosen.index}`;
}

const ok: Outcome = { status: 'success' };

describe('selectEdge — the five steps', () => {
  it.each<Row>([
    ['step 1: a true condition wins', [['a'], ['b', { condition: 'outcome=success' }]], ok, 'b#1'],
    [
      'step 1: a condition match beats weight',
      [
        ['a', { weight: 100 }],
        ['b', { condition: 'outcome=success' }],
      ],
      ok,
      'b#1',
    ],
    [
      'step 1: highest weight among true conditions',
      [
        ['a', { condition: 'outcome=success', weight: 1 }],
        ['b', { condition: 'outcome=success', weight: 5 }],
      ],
      ok,
      'b#1',
    ],
    [
      'step 1: equal weight → target id',
      [
        ['zeta', { condition: 'outcome=success' }],
        ['alpha', { condition: 'outcome=success' }],
      ],
      ok,
      'alpha#1',
    ],
    [
      'step 1: same target → declaration index',
      [
        ['x', { condition: 'outcome=success', label: 'one' }],
        ['x', { condition: 'outcome=success', label: 'two' }],
      ],
      ok,
      'x#0',
    ],
    [
      'step 1: false conditions are skipped',
      [
        ['a', { condition: 'outcome=fail' }],
        ['b', { condition: 'outcome=success' }],
      ],
      ok,
      'b#1',
    ],
    [
      'step 2: preferred label, case-insensitive, accelerator stripped',
      [
        ['a', { label: '[A] Approve' }],
        ['f', { label: '[F] Fix' }],
      ],
      { status: 'success', preferred_label: 'fix' },
      'f#1',
    ],
    [
      'step 2: `K) Label` and `K - Label` prefixes',
      [
        ['r', { label: 'R) Reject' }],
        ['s', { label: 'S - Skip' }],
      ],
      { status: 'success', preferred_label: '  SKIP ' },
      's#1',
    ],
    [
      'step 2: preferred label never selects a false conditional edge',
      [
        ['a', { label: 'approve', condition: 'outcome=fail' }],
        ['b', { label: 'other' }],
      ],
      { status: 'success', preferred_label: 'approve' },
      'b#1',
    ],
    [
      'step 2: distinct edges between the same nodes stay distinct',
      [
        ['plan', { label: '[L] Large' }],
        ['plan', { label: '[S] Small' }],
      ],
      { status: 'success', preferred_label: 'Small' },
      'plan#1',
    ],
    [
      'step 2: unmatched label falls through to weight',
      [
        ['a', { label: 'x' }],
        ['b', { label: 'y', weight: 2 }],
      ],
      { status: 'success', preferred_label: 'zzz' },
      'b#1',
    ],
    [
      'step 3: suggested ids in order',
      [['a'], ['b'], ['c']],
      { status: 'success', suggested_next_ids: ['nope', 'c', 'b'] },
      'c#2',
    ],
    [
      'step 3: suggested id never selects a false conditional edge',
      [['a', { condition: 'outcome=fail' }], ['b']],
      { status: 'success', suggested_next_ids: ['a'] },
      'b#1',
    ],
    [
      'step 2 before step 3',
      [['a', { label: 'go' }], ['b']],
      { status: 'success', preferred_label: 'go', suggested_next_ids: ['b'] },
      'a#0',
    ],
    [
      'step 4: highest weight among unconditional edges',
      [
        ['a', { weight: 1 }],
        ['b', { weight: 3 }],
        ['c', { weight: 2 }],
      ],
      ok,
      'b#1',
    ],
    ['step 5: lexical target id on equal weight', [['m'], ['c'], ['x']], ok, 'c#1'],
    ['step 5: lexical is by code unit, not locale', [['b'], ['B'], ['a']], ok, 'B#1'],
    ['no edges', [], ok, undefined],
    [
      'only false conditional edges: none (never a fallback)',
      [
        ['a', { condition: 'outcome=fail' }],
        ['b', { condition: 'context.x' }],
      ],
      ok,
      undefined,
    ],
    [
      'a blank condition counts as unconditional',
      [
        ['a', { condition: '  ' }],
        ['b', { condition: 'outcome=fail' }],
      ],
      ok,
      'a#0',
    ],
  ])('%s', (_name, edges, outcome, expected) => {
    expect(pick(edges, outcome)).toBe(expected);
  });

  it('evaluates conditions against the context and the outcome context_updates', () => {
    const edges: Row[1] = [['a', { condition: 'context.ready=yes' }], ['b']];
    expect(pick(edges, ok, { ready: 'yes' })).toBe('a#0');
    expect(pick(edges, { status: 'success', context_updates: { ready: 'yes' } }, {})).toBe('a#0');
    expect(pick(edges, ok, {})).toBe('b#1');
  });

  it('preferred_label in a condition reads the outcome', () => {
    const edges: Row[1] = [['a', { condition: 'preferred_label=Fix' }], ['b']];
    expect(pick(edges, { status: 'success', preferred_label: 'Fix' })).toBe('a#0');
    expect(pick(edges, ok, { preferred_label: 'Fix' })).toBe('b#1');
  });
});

describe('selectEdge — llm_decide', () => {
  const edges: Row[1] = [
    ['a', { llm_decide: true }],
    ['b', { llm_decide: true }],
    ['c', { condition: 'context.force' }],
    ['d', { weight: 9 }],
  ];

  it('takes the router choice when no condition matched', () => {
    expect(pick(edges, ok, {}, 'b')).toBe('b#1');
  });

  it('a matching condition wins over the router choice', () => {
    expect(pick(edges, ok, { force: 'y' }, 'b')).toBe('c#2');
  });

  it('an unknown choice falls through to steps 2–5', () => {
    expect(pick(edges, ok, {}, 'd')).toBe('d#3');
    expect(pick(edges, ok, {}, 'nowhere')).toBe('d#3');
  });

  it('lists candidates, and asks the router only when step 1 found nothing', () => {
    const graph = buildGraph({ edges: edges.map(([t, a]) => ['n', t, a ?? {}]) });
    const out = edgesFrom(graph, 'n');
    expect(llmDecideCandidates(out).map((e) => e.target)).toEqual(['a', 'b']);
    expect(routerCandidates({ edges: out, outcome: ok, context: {} })?.map((e) => e.target)).toEqual([
      'a',
      'b',
    ]);
    expect(routerCandidates({ edges: out, outcome: ok, context: { force: 1 } })).toBeUndefined();
    expect(routerCandidates({ edges: out.slice(2), outcome: ok, context: {} })).toBeUndefined();
  });
});
