import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../src/compiler/diagnostic.js';
import type { PipelineGraph } from '../../../src/compiler/ir.js';
import {
  hasErrors,
  type LintRule,
  PipelineValidationError,
  validate,
  validateOrRaise,
} from '../../../src/compiler/validate/index.js';
import { AttractorError } from '../../../src/shared/errors.js';
import { linearGraph, lintGraph } from '../../helpers/lint-graph.js';

const noTodo: LintRule = {
  id: 'no_todo',
  severity: 'warning',
  description: 'Prompts should not contain TODO.',
  check: (graph) =>
    graph.nodes
      .filter((node) => node.attrs.prompt?.includes('TODO'))
      .map((node) => ({
        rule: 'no_todo',
        severity: 'warning',
        message: `Node "${node.id}" has a TODO.`,
        node_id: node.id,
        loc: node.loc,
      })),
};

const todoGraph = () => linearGraph({ nodes: { work: { prompt: 'TODO: write me' } } });

describe('validate', () => {
  it('finds nothing in a clean pipeline', () => {
    expect(validate(linearGraph())).toEqual([]);
  });

  it('runs the whole set on a broken pipeline, sorted by source location', () => {
    const graph = lintGraph({
      nodes: { work: { prompt: 'x', fidelity: 'huge' }, orphan: {}, done: { shape: 'Msquare' } },
      edges: [
        ['work', 'done'],
        ['done', 'work'],
      ],
    });
    const findings = validate(graph);
    expect(findings.map((d) => [d.rule, d.node_id])).toEqual([
      ['start_node', undefined],
      ['cycles', 'work'],
      ['fidelity_valid', 'work'],
      ['prompt_on_llm_nodes', 'orphan'],
      ['exit_no_outgoing', 'done'],
    ]);
    const lines = findings.map((d) => d.loc!.line);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
  });

  it('puts findings without a location last and errors before warnings at one place', () => {
    const loc = { line: 1, column: 1 };
    const rule: LintRule = {
      id: 'mixed',
      severity: 'info',
      description: 'Emits findings in a scrambled order.',
      check: () => [
        { rule: 'mixed', severity: 'info', message: 'No place.' },
        { rule: 'mixed', severity: 'warning', message: 'Warn.', loc },
        { rule: 'mixed', severity: 'error', message: 'Err.', loc },
      ],
    };
    const messages = validate(linearGraph(), { rules: [rule] }).map((d) => d.message);
    expect(messages).toEqual(['Err.', 'Warn.', 'No place.']);
  });

  it('accepts custom handler types registered through the option', () => {
    const graph = linearGraph({ nodes: { work: { type: 'deploy', prompt: 'x' } } });
    expect(validate(graph).map((d) => d.rule)).toEqual(['type_known']);
    expect(validate(graph, { customHandlerTypes: ['deploy'] })).toEqual([]);
  });

  it('runs per-call extra rules after the built-ins', () => {
    expect(validate(todoGraph()).map((d) => d.rule)).toEqual([]);
    expect(validate(todoGraph(), { rules: [noTodo] }).map((d) => d.rule)).toEqual(['no_todo']);
  });

  it('wraps a crashing rule in an AttractorError naming the rule', () => {
    const crash: LintRule = {
      id: 'crash',
      severity: 'error',
      description: 'Always throws.',
      check: () => {
        throw new TypeError('boom');
      },
    };
    let thrown: unknown;
    try {
      validate(linearGraph(), { rules: [crash] });
    } catch (error) {
      thrown = error;
    }
    expect(AttractorError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({ code: 'LINT_RULE_FAILED', message: expect.stringContaining('"crash"') });
  });
});

describe('custom lint rules', () => {
  it('apply to the call that names them, and to no other', () => {
    expect(validate(todoGraph(), { rules: [noTodo] }).map((d) => d.node_id)).toEqual(['work']);
    expect(validate(todoGraph())).toEqual([]);
  });

  it.each([
    ['a built-in id', [{ ...noTodo, id: 'reachability' }], /"reachability" is a built-in rule/],
    ['one id twice', [noTodo, { ...noTodo }], /"no_todo" is given twice/],
  ])('refuse %s', (_what, rules, message) => {
    expect(() => validate(todoGraph(), { rules })).toThrow(message);
  });
});

describe('hasErrors and validateOrRaise', () => {
  const broken = (): PipelineGraph =>
    lintGraph({
      nodes: {
        start: { shape: 'Mdiamond' },
        work: { prompt: 'x', goal_gate: true },
        orphan: { prompt: 'y' },
      },
      edges: [['start', 'work']],
    });

  it('hasErrors looks at severity only', () => {
    const warning: Diagnostic = { rule: 'r', severity: 'warning', message: 'w' };
    expect(hasErrors([])).toBe(false);
    expect(hasErrors([warning])).toBe(false);
    expect(hasErrors([warning, { ...warning, severity: 'error' }])).toBe(true);
  });

  it('returns the warnings when there is no error', () => {
    const graph = linearGraph({ nodes: { work: { prompt: 'x', goal_gate: true } } });
    expect(validateOrRaise(graph).map((d) => d.rule)).toEqual(['goal_gate_has_retry']);
  });

  it('throws one PipelineValidationError listing every error with its location', () => {
    let thrown: unknown;
    try {
      validateOrRaise(broken());
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PipelineValidationError);
    const error = thrown as PipelineValidationError;
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(AttractorError.isInstance(error)).toBe(true);
    expect(error.message).toMatch(/^Pipeline validation failed with 2 errors:\n/);
    expect(error.message).toContain(
      'test.dot:4:3: Node "orphan" cannot be reached from the start node "start". [reachability]',
    );
    expect(error.message).toContain('[terminal_node]');
    expect(error.message).not.toContain('goal_gate_has_retry');
    expect(error.diagnostics.map((d) => d.rule).sort()).toEqual(
      ['goal_gate_has_retry', 'reachability', 'terminal_node'].sort(),
    );
    expect(error.location).toEqual({ file: 'test.dot', line: 1, column: 1 });
    // Each line carries its location; describe() does not repeat the first one in front.
    expect(error.describe()).toBe(error.message);
    expect(error.toJSON()).toMatchObject({ code: 'VALIDATION_FAILED', diagnostics: error.diagnostics });
  });

  it('says "1 error" for a single error', () => {
    const graph = linearGraph({ nodes: { orphan: { prompt: 'x' } } });
    expect(() => validateOrRaise(graph)).toThrow(/failed with 1 error:/);
  });
});

// Scale, not speed: the findings on 10,000-node graphs. How validation time grows with the graph is
// measured by bench/validate-growth.mjs (wall-clock bounds flake on a shared machine).
describe('large graphs', () => {
  /** A 10,000-node pipeline: a chain with a bounded fail back edge every 10 nodes and a side branch every 7. */
  function bigGraph(n: number): PipelineGraph {
    const nodes: Record<string, { prompt?: string; shape?: string; max_visits?: number }> = {
      start: { shape: 'Mdiamond' },
    };
    const edges: [string, string, { condition?: string }?][] = [['start', 'n0']];
    for (let i = 0; i < n; i++) {
      nodes[`n${i}`] = { prompt: `Step ${i}.`, max_visits: 5 };
      edges.push([`n${i}`, i + 1 < n ? `n${i + 1}` : 'done']);
      if (i % 10 === 9) edges.push([`n${i}`, `n${i - 9}`, { condition: 'outcome=fail' }]);
      if (i % 7 === 0 && i + 3 < n)
        edges.push([`n${i}`, `n${i + 3}`, { condition: 'outcome=partial_success' }]);
    }
    nodes['done'] = { shape: 'Msquare' };
    return lintGraph({ nodes, edges });
  }

  it('finds nothing wrong with a clean 10,000-node pipeline', () => {
    expect(validate(bigGraph(10_000))).toEqual([]);
  });

  it('reports each of 10,000 unconditional self loops', () => {
    const graph = bigGraph(10_000);
    graph.edges = graph.edges.filter((edge) => edge.attrs.condition === undefined);
    for (const node of graph.nodes) {
      graph.edges.push({ ...graph.edges[0]!, index: graph.edges.length, source: node.id, target: node.id });
    }
    const cycles = validate(graph).filter((d) => d.rule === 'cycles');
    expect(cycles).toHaveLength(graph.nodes.length);
  });
});
