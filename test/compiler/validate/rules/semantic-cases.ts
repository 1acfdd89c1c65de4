import { linearGraph, lintGraph } from '../../../helpers/lint-graph.js';
import type { RuleCase } from './rule-case.js';

const mdiamond = { shape: 'Mdiamond' };
const msquare = { shape: 'Msquare' };
const work = { prompt: 'Work.' };

/** Attribute, syntax and loop rules. */
export const semanticCases: RuleCase[] = [
  // condition_syntax
  {
    rule: 'condition_syntax',
    name: 'valid conditions',
    graph: linearGraph({
      nodes: { other: work },
      edges: [
        ['work', 'other', { condition: 'outcome=success && context.ready=true' }],
        ['other', 'done', { condition: '' }],
      ],
    }),
    expected: [],
  },
  {
    rule: 'condition_syntax',
    name: '`==` is not the condition language',
    graph: linearGraph({
      nodes: { other: work },
      edges: [['work', 'other', { condition: 'outcome==success' }]],
    }),
    expected: ['work->other'],
  },
  {
    rule: 'condition_syntax',
    name: 'manager.stop_condition is checked too',
    graph: lintGraph({
      nodes: {
        start: mdiamond,
        boss: { shape: 'house', 'stack.child_dotfile': 'child.dot', 'manager.stop_condition': 'outcome==x' },
        done: msquare,
      },
      edges: [
        ['start', 'boss'],
        ['boss', 'done'],
      ],
    }),
    expected: ['boss'],
  },
  // stylesheet_syntax
  {
    rule: 'stylesheet_syntax',
    name: 'valid stylesheet',
    graph: lintGraph({
      attrs: { model_stylesheet: '* { llm_model: claude-sonnet-4-5; }' },
      nodes: { start: mdiamond, work, done: msquare },
      edges: [
        ['start', 'work'],
        ['work', 'done'],
      ],
    }),
    expected: [],
  },
  {
    rule: 'stylesheet_syntax',
    name: 'unclosed rule',
    graph: lintGraph({
      attrs: { model_stylesheet: '* { llm_model: claude-sonnet-4-5;' },
      nodes: { start: mdiamond, work, done: msquare },
      edges: [
        ['start', 'work'],
        ['work', 'done'],
      ],
    }),
    expected: ['graph'],
  },
  {
    rule: 'stylesheet_syntax',
    name: 'a stylesheet with only a comment has no rules',
    graph: linearGraph({ attrs: { model_stylesheet: '/* to do */' } }),
    expected: ['graph'],
  },
  {
    rule: 'stylesheet_syntax',
    name: 'unknown property',
    graph: linearGraph({ attrs: { model_stylesheet: '* { colour: red; }' } }),
    expected: ['graph'],
  },
  // type_known
  { rule: 'type_known', name: 'built-in handlers', graph: linearGraph(), expected: [] },
  {
    rule: 'type_known',
    name: 'unknown type',
    graph: linearGraph({ nodes: { work: { type: 'deploy', prompt: 'x' } } }),
    expected: ['work'],
  },
  {
    rule: 'type_known',
    name: 'misspelt shape',
    graph: linearGraph({ nodes: { done: { shape: 'Msqaure' } } }),
    expected: ['done'],
    // Reported, but the node still runs as the codergen an unknown shape means (docs/semantics.md).
    severity: 'warning',
  },
  {
    rule: 'type_known',
    name: 'misspelt type, with did-you-mean',
    graph: linearGraph({ nodes: { work: { type: 'tol', prompt: 'x' } } }),
    expected: ['work'],
  },
  {
    rule: 'type_known',
    name: 'unknown shape with an explicit type',
    graph: linearGraph({ nodes: { work: { shape: 'ellipse', type: 'codergen', prompt: 'x' } } }),
    expected: [],
  },
  // required_attributes
  {
    rule: 'required_attributes',
    name: 'complete tool, manager and k_of_n nodes',
    graph: lintGraph({
      attrs: { 'stack.child_dotfile': 'child.dot' },
      nodes: {
        start: mdiamond,
        run: { shape: 'parallelogram', tool_command: 'make test' },
        boss: { shape: 'house' },
        fan: { shape: 'component', join_policy: 'k_of_n', join_k: 1 },
        done: msquare,
      },
      edges: [
        ['start', 'run'],
        ['run', 'boss'],
        ['boss', 'fan'],
        ['fan', 'done'],
      ],
    }),
    expected: [],
  },
  {
    rule: 'required_attributes',
    name: 'tool without tool_command, manager without child, k_of_n without join_k',
    graph: lintGraph({
      nodes: {
        start: mdiamond,
        run: { type: 'tool' },
        boss: { shape: 'house' },
        fan: { shape: 'component', join_policy: 'k_of_n' },
        done: msquare,
      },
      edges: [
        ['start', 'run'],
        ['run', 'boss'],
        ['boss', 'fan'],
        ['fan', 'done'],
      ],
    }),
    expected: ['run', 'boss', 'fan'],
  },
  {
    rule: 'required_attributes',
    name: 'node-level stack.child_dotfile is enough',
    graph: linearGraph({ nodes: { work: { shape: 'house', 'stack.child_dotfile': 'child.dot' } } }),
    expected: [],
  },
  {
    rule: 'required_attributes',
    name: 'a manager that only observes (stack.child_autostart=false) needs no child dotfile',
    graph: linearGraph({ nodes: { work: { shape: 'house', 'stack.child_autostart': false } } }),
    expected: [],
  },
  // fidelity_valid
  {
    rule: 'fidelity_valid',
    name: 'every mode on graph, node and edge',
    graph: lintGraph({
      attrs: { default_fidelity: 'compact' },
      nodes: { start: mdiamond, work: { prompt: 'x', fidelity: 'summary:high' }, done: msquare },
      edges: [
        ['start', 'work', { fidelity: 'full' }],
        ['work', 'done', { fidelity: 'truncate' }],
      ],
    }),
    expected: [],
  },
  {
    rule: 'fidelity_valid',
    name: 'bad modes on graph, node and edge',
    graph: lintGraph({
      attrs: { default_fidelity: 'tiny' },
      nodes: { start: mdiamond, work: { prompt: 'x', fidelity: 'summary' }, done: msquare },
      edges: [
        ['start', 'work', { fidelity: 'FULL' }],
        ['work', 'done'],
      ],
    }),
    expected: ['graph', 'work', 'start->work'],
  },
  // retry_target_exists
  {
    rule: 'retry_target_exists',
    name: 'targets exist (self-target included)',
    graph: linearGraph({
      attrs: { retry_target: 'work' },
      nodes: { work: { prompt: 'x', retry_target: 'work', fallback_retry_target: 'start' } },
    }),
    expected: [],
  },
  {
    rule: 'retry_target_exists',
    name: 'missing targets',
    graph: linearGraph({
      attrs: { fallback_retry_target: 'nowhere' },
      nodes: { work: { prompt: 'x', retry_target: 'wrok' } },
    }),
    expected: ['graph', 'work'],
  },
  // goal_gate_has_retry
  {
    rule: 'goal_gate_has_retry',
    name: 'gate with a node retry_target',
    graph: linearGraph({ nodes: { work: { prompt: 'x', goal_gate: true, retry_target: 'work' } } }),
    expected: [],
  },
  {
    rule: 'goal_gate_has_retry',
    name: 'gate covered by the graph fallback_retry_target',
    graph: linearGraph({
      attrs: { fallback_retry_target: 'work' },
      nodes: { work: { prompt: 'x', goal_gate: true } },
    }),
    expected: [],
  },
  {
    rule: 'goal_gate_has_retry',
    name: 'gate with no retry anywhere',
    graph: linearGraph({ nodes: { work: { prompt: 'x', goal_gate: true } } }),
    expected: ['work'],
  },
  // prompt_on_llm_nodes
  {
    rule: 'prompt_on_llm_nodes',
    name: 'prompt or written label; non-LLM nodes need neither',
    graph: lintGraph({
      nodes: {
        start: mdiamond,
        a: { prompt: 'x' },
        b: { label: 'Write the tests' },
        c: { label: 'c' },
        gate: { shape: 'hexagon' },
        done: msquare,
      },
      edges: [
        ['start', 'a'],
        ['a', 'b'],
        ['b', 'c'],
        ['c', 'gate'],
        ['gate', 'done'],
      ],
    }),
    expected: [],
  },
  {
    rule: 'prompt_on_llm_nodes',
    name: 'bare node, empty prompt, implicit node whose label is only its id',
    graph: (() => {
      const graph = lintGraph({
        nodes: { start: mdiamond, bare: {}, blank: { prompt: '  ' }, done: msquare },
        edges: [
          ['start', 'bare'],
          ['bare', 'blank'],
          ['blank', 'ghost'],
          ['ghost', 'done'],
        ],
      });
      const ghost = graph.nodes.find((node) => node.id === 'ghost')!;
      ghost.attrs.label = 'ghost'; // the Graphviz default label, not written in the source
      return graph;
    })(),
    expected: ['bare', 'blank', 'ghost'],
  },
  {
    rule: 'prompt_on_llm_nodes',
    name: 'start and exit found by name are not LLM nodes',
    graph: lintGraph({
      nodes: { start: {}, work, exit: {} },
      edges: [
        ['start', 'work'],
        ['work', 'exit'],
      ],
    }),
    expected: [],
  },
  // cycles
  {
    rule: 'cycles',
    name: 'loop closed by a conditional edge',
    graph: linearGraph({
      nodes: { check: work },
      edges: [
        ['work', 'check'],
        ['check', 'work', { condition: 'outcome=fail' }],
      ],
    }),
    expected: [],
  },
  {
    rule: 'cycles',
    name: 'unconditional 3-cycle',
    graph: linearGraph({
      nodes: { a: work, b: work, c: work },
      edges: [
        ['work', 'a'],
        ['a', 'b'],
        ['b', 'c'],
        ['c', 'a'],
      ],
    }),
    expected: ['a'],
  },
  // fail_loop_has_bound
  {
    rule: 'fail_loop_has_bound',
    name: 'fail loop bounded by max_visits',
    graph: linearGraph({
      nodes: { check: { ...work, max_visits: 3 } },
      edges: [
        ['work', 'check'],
        ['check', 'work', { condition: 'outcome=fail' }],
      ],
    }),
    expected: [],
  },
  {
    rule: 'fail_loop_has_bound',
    name: 'fail loop with no bound',
    graph: linearGraph({
      nodes: { check: work },
      edges: [
        ['work', 'check'],
        ['check', 'work', { condition: 'outcome=fail' }],
      ],
    }),
    expected: ['work'],
  },
  // dead_end
  {
    rule: 'dead_end',
    name: 'conditional edges that cover every case',
    graph: linearGraph({
      nodes: { check: work },
      edges: [
        ['work', 'check'],
        ['check', 'done', { condition: 'context.verdict=pass' }],
        ['check', 'work', { condition: 'context.verdict!=pass' }],
      ],
    }),
    expected: [],
  },
  {
    rule: 'dead_end',
    name: 'conditions an unset value satisfies none of',
    graph: linearGraph({
      nodes: { check: work },
      edges: [
        ['work', 'check'],
        ['check', 'done', { condition: 'context.verdict=pass' }],
        ['check', 'work', { condition: 'context.verdict=fail' }],
      ],
    }),
    expected: ['check'],
  },
  // parallel_isolation
  {
    rule: 'parallel_isolation',
    name: 'isolated branches merged by the best',
    graph: lintGraph({
      nodes: {
        start: mdiamond,
        fan: { shape: 'component', isolation: 'worktree', merge: 'best' },
        a: work,
        b: work,
        join: { shape: 'tripleoctagon' },
        done: msquare,
      },
      edges: [
        ['start', 'fan'],
        ['fan', 'a'],
        ['fan', 'b'],
        ['a', 'join'],
        ['b', 'join'],
        ['join', 'done'],
      ],
    }),
    expected: [],
  },
  {
    rule: 'parallel_isolation',
    name: 'a misspelt isolation',
    graph: lintGraph({
      nodes: {
        start: mdiamond,
        fan: { shape: 'component', isolation: 'worktrees' },
        a: work,
        b: work,
        join: { shape: 'tripleoctagon' },
        done: msquare,
      },
      edges: [
        ['start', 'fan'],
        ['fan', 'a'],
        ['fan', 'b'],
        ['a', 'join'],
        ['b', 'join'],
        ['join', 'done'],
      ],
    }),
    expected: ['fan'],
  },
  {
    rule: 'parallel_isolation',
    name: 'an unknown merge',
    graph: lintGraph({
      nodes: {
        start: mdiamond,
        fan: { shape: 'component', isolation: 'worktree', merge: 'first' },
        a: work,
        b: work,
        join: { shape: 'tripleoctagon' },
        done: msquare,
      },
      edges: [
        ['start', 'fan'],
        ['fan', 'a'],
        ['fan', 'b'],
        ['a', 'join'],
        ['b', 'join'],
        ['join', 'done'],
      ],
    }),
    expected: ['fan'],
  },
  {
    rule: 'parallel_isolation',
    name: 'merge without isolation',
    graph: lintGraph({
      nodes: {
        start: mdiamond,
        fan: { shape: 'component', merge: 'all' },
        a: work,
        b: work,
        join: { shape: 'tripleoctagon' },
        done: msquare,
      },
      edges: [
        ['start', 'fan'],
        ['fan', 'a'],
        ['fan', 'b'],
        ['a', 'join'],
        ['b', 'join'],
        ['join', 'done'],
      ],
    }),
    expected: ['fan'],
  },
  // parallel_failure_has_route
  {
    rule: 'parallel_failure_has_route',
    name: 'a fail edge at the fan-in',
    graph: lintGraph({
      nodes: {
        start: mdiamond,
        fan: { shape: 'component' },
        a: work,
        b: work,
        join: { shape: 'tripleoctagon' },
        fix: work,
        done: msquare,
      },
      edges: [
        ['start', 'fan'],
        ['fan', 'a'],
        ['fan', 'b'],
        ['a', 'join'],
        ['b', 'join'],
        ['join', 'done', { condition: 'outcome=success' }],
        ['join', 'fix', { condition: 'outcome=fail' }],
        ['fix', 'done'],
      ],
    }),
    expected: [],
  },
  {
    rule: 'parallel_failure_has_route',
    name: 'no route for every branch failing',
    graph: lintGraph({
      nodes: {
        start: mdiamond,
        fan: { shape: 'component' },
        a: work,
        b: work,
        join: { shape: 'tripleoctagon' },
        done: msquare,
      },
      edges: [
        ['start', 'fan'],
        ['fan', 'a'],
        ['fan', 'b'],
        ['a', 'join'],
        ['b', 'join'],
        ['join', 'done'],
      ],
    }),
    expected: ['fan'],
  },
  // vars_declared
  {
    rule: 'vars_declared',
    name: 'a declared parameter and $goal',
    graph: linearGraph({
      attrs: { vars: 'feature' },
      nodes: { work: { prompt: 'Build $feature for $goal' } },
    }),
    expected: [],
  },
  {
    rule: 'vars_declared',
    name: 'an undeclared $name in a prompt',
    graph: linearGraph({ nodes: { work: { prompt: 'Build $feature' } } }),
    expected: ['work'],
  },
  // human_freeform_choice
  ...(['R', 'Revise', 'work', 'false'] as const).map((value) => ({
    rule: 'human_freeform_choice',
    name: `human.freeform="${value}" on a gate with two choices`,
    graph: reviewGate({ 'human.freeform': value }),
    expected: [],
  })),
  {
    rule: 'human_freeform_choice',
    name: 'human.freeform=true on a gate with one edge',
    graph: linearGraph({
      nodes: { work: { shape: 'hexagon', label: 'What to build?', 'human.freeform': 'true' } },
    }),
    expected: [],
  },
  ...(['true', 'Q'] as const).map((value) => ({
    rule: 'human_freeform_choice',
    name: `human.freeform="${value}" names no single choice`,
    graph: reviewGate({ 'human.freeform': value }),
    expected: ['gate'],
  })),
  // gate_keys_distinct
  ...(
    [
      ['[A] Approve', '[R] Revise', []],
      ['Approve', 'Abandon', []],
      ['[A] Approve', '[A] Abandon', ['gate->work']],
      ['A) Approve', 'A - Abandon', ['gate->work']],
      ['[A] Approve', 'abandon', ['gate->work']],
    ] as const
  ).map(([approve, other, expected]) => ({
    rule: 'gate_keys_distinct',
    name: `a gate choosing "${approve}" or "${other}"`,
    graph: twoChoiceGate(approve, other),
    expected: [...expected],
  })),
];

function twoChoiceGate(toDone: string, toWork: string) {
  return lintGraph({
    nodes: { start: mdiamond, work, gate: { shape: 'hexagon', label: 'Ship it?' }, done: msquare },
    edges: [
      ['start', 'work'],
      ['work', 'gate'],
      ['gate', 'done', { label: toDone }],
      ['gate', 'work', { label: toWork }],
    ],
  });
}

/** A gate with two choices: `[A] Approve` to done, `[R] Revise` back to work. */
function reviewGate(gateAttrs: Record<string, string>) {
  return lintGraph({
    nodes: {
      start: mdiamond,
      work,
      gate: { shape: 'hexagon', label: 'Ship it?', ...gateAttrs },
      done: msquare,
    },
    edges: [
      ['start', 'work'],
      ['work', 'gate'],
      ['gate', 'done', { label: '[A] Approve' }],
      ['gate', 'work', { label: '[R] Revise' }],
    ],
  });
}
