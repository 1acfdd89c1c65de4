import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { PipelineGraph } from '../../../src/compiler/ir.js';
import { parseDot } from '../../../src/compiler/parse/parse-dot.js';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/dot');

function load(name: string): PipelineGraph {
  const file = path.join(fixtures, name);
  const result = parseDot(fs.readFileSync(file, 'utf8'), { file: `fixtures/${name}` });
  expect(result.diagnostics).toEqual([]);
  return result.graph;
}

const summary = (graph: PipelineGraph) => ({
  nodes: graph.nodes.map((n) => `${n.id}:${n.handler}${n.implicit ? ':implicit' : ''}`),
  edges: graph.edges.map((e) => `${e.source}->${e.target}`),
});

describe('parseDot on our DOT fixtures', () => {
  it('parses every fixture without diagnostics', () => {
    const names = fs.readdirSync(fixtures).filter((name) => name.endsWith('.dot'));
    expect(names.length).toBeGreaterThanOrEqual(5);
    for (const name of names) expect(load(name).nodes.length).toBeGreaterThan(0);
  });

  it.each([
    [
      'linear.dot',
      'linear',
      ['start:start', 'draft:codergen', 'polish:codergen', 'done:exit'],
      ['start->draft', 'draft->polish', 'polish->done'],
    ],
    [
      'review-loop.dot',
      'review_loop',
      ['start:start', 'implement:codergen', 'test:tool', 'check:conditional', 'exit:exit'],
      ['start->implement', 'implement->test', 'test->check', 'check->exit', 'check->implement'],
    ],
    [
      'human-gate.dot',
      'human_gate',
      ['start:start', 'write:codergen', 'approve:wait.human', 'ship:exit'],
      ['start->write', 'write->approve', 'approve->ship', 'approve->write', 'approve->write'],
    ],
    [
      'subgraphs.dot',
      'subgraphs',
      [
        'start:start',
        'plan:codergen',
        'code:codergen',
        'review:codergen',
        'fixup:codergen:implicit',
        'done:exit',
      ],
      ['review->fixup', 'start->plan', 'plan->code', 'code->review', 'fixup->done'],
    ],
    [
      'lexical.dot',
      'lexical forms',
      ['start:start', 'multi:codergen', 'listed:codergen', 'url:codergen', 'done:exit'],
      ['start->multi', 'multi->listed', 'listed->url', 'url->done'],
    ],
  ])('%s', (name, graphName, nodes, edges) => {
    const graph = load(name);
    expect(graph.name).toBe(graphName);
    expect(summary(graph)).toEqual({ nodes, edges });
  });

  it('review-loop.dot: defaults, typed values and graph attributes', () => {
    const graph = load('review-loop.dot');
    expect(graph.attrs).toEqual({
      goal: 'Add a --dry-run flag',
      default_max_retries: 1,
      retry_target: 'implement',
    });
    const byId = new Map(graph.nodes.map((n) => [n.id, n]));
    expect(byId.get('implement')!.attrs).toMatchObject({ timeout: 900_000, goal_gate: true, max_retries: 2 });
    expect(byId.get('test')!.attrs).toMatchObject({ timeout: 300_000, tool_command: 'npm test' });
    expect(graph.edges[3]).toMatchObject({
      attrs: { condition: 'outcome=success', weight: 2 },
      loc: { line: 13 },
    });
  });

  it('human-gate.dot: parallel choices stay distinct', () => {
    const graph = load('human-gate.dot');
    expect(graph.edges.slice(2).map((e) => [e.index, e.attrs.label, e.attrs.loop_restart])).toEqual([
      [2, '[A] Approve', undefined],
      [3, '[F] Fix', undefined],
      [4, '[R] Rewrite from scratch', true],
    ]);
    expect(graph.nodes[2]!.attrs).toMatchObject({ 'human.default_choice': 'A', 'human.timeout': 600_000 });
  });

  it('subgraphs.dot: classes, threads and the multi-line stylesheet', () => {
    const graph = load('subgraphs.dot');
    const byId = new Map(graph.nodes.map((n) => [n.id, n]));
    expect(byId.get('code')).toMatchObject({
      classes: ['code', 'critical', 'implementation'],
      subgraph: 'Implementation',
      attrs: { thread_id: 'impl', fidelity: 'full', shape: 'box' },
    });
    expect(byId.get('fixup')).toMatchObject({ classes: ['code-review'], attrs: { thread_id: 'review' } });
    expect(byId.get('done')!.classes).toEqual([]);
    expect(graph.attrs.model_stylesheet).toContain('\n      .code-review { llm_model: big-model;');
  });

  it('lexical.dot: concatenation, raw newlines, continuation, merged lists, URLs', () => {
    const graph = load('lexical.dot');
    const byId = new Map(graph.nodes.map((n) => [n.id, n]));
    expect(graph.attrs.goal).toBe('Prompts that span several strings');
    expect(byId.get('multi')!.attrs).toEqual({
      prompt: 'First line\nSecond line with a "quote"\tand a tab\nThird line continues here',
      llm_model: 'claude-sonnet-4.5',
    });
    expect(byId.get('listed')!.attrs).toEqual({
      label: 'L',
      prompt: 'P',
      max_retries: 2,
      allow_partial: true,
    });
    expect(byId.get('listed')!.loc).toMatchObject({ line: 9, column: 3 });
    expect(byId.get('url')!.attrs.prompt).toBe('Fetch https://example.com/a//b /* not a comment */');
    expect(byId.get('url')!.loc).toMatchObject({ line: 10, column: 3 });
    expect(graph.edges.map((e) => e.attrs.weight)).toEqual([1.5, 1.5, 1.5, 1.5]);
  });

  it.each(['linear.dot', 'review-loop.dot', 'human-gate.dot', 'subgraphs.dot', 'lexical.dot'])(
    '%s matches its stored snapshot',
    (name) => {
      expect(load(name)).toMatchSnapshot();
    },
  );
});
