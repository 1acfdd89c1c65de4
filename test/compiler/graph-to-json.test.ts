import { describe, expect, it } from 'vitest';
import { graphToJson } from '../../src/compiler/graph-to-json.js';
import type { PipelineGraph, PipelineNode } from '../../src/compiler/ir.js';
import { parseDot } from '../../src/compiler/parse/parse-dot.js';

const loc = { line: 1, column: 1 };

function node(id: string, over: Partial<PipelineNode> = {}): PipelineNode {
  return {
    id,
    handler: 'codergen',
    attrs: {},
    extra: {},
    classes: [],
    implicit: false,
    loc,
    attrLocs: {},
    ...over,
  };
}

function graph(over: Partial<PipelineGraph> = {}): PipelineGraph {
  return { name: 'g', attrs: {}, extra: {}, nodes: [], edges: [], loc, attrLocs: {}, ...over };
}

describe('graphToJson', () => {
  it('has exactly the contract keys, in order, and "" for a missing goal', () => {
    const json = graphToJson(graph());
    expect(Object.keys(json)).toEqual(['name', 'goal', 'params', 'attrs', 'nodes', 'edges']);
    expect(json).toEqual({ name: 'g', goal: '', params: [], attrs: {}, nodes: [], edges: [] });
  });

  it.each([
    [
      'typed attributes keep their types',
      { max_retries: 3, goal_gate: true, prompt: 'p' },
      {},
      { goal_gate: true, max_retries: 3, prompt: 'p' },
    ],
    ['extras are merged in as strings', {}, { owner: 'team' }, { owner: 'team' }],
    [
      'a typed attribute wins over an extra of the same name',
      { label: 'typed' },
      { label: 'raw' },
      { label: 'typed' },
    ],
    ['undefined attributes are left out', { label: undefined }, {}, {}],
  ])('%s', (_name, attrs, extra, expected) => {
    const json = graphToJson(graph({ nodes: [node('a', { attrs: attrs as PipelineNode['attrs'], extra })] }));
    expect(json.nodes[0]).toEqual({ id: 'a', handler: 'codergen', attrs: expected });
  });

  it('keys are sorted so the output is stable', () => {
    const json = graphToJson(
      graph({
        nodes: [node('a', { attrs: { shape: 'box', label: 'A' }, extra: { zeta: '1', alpha: '2' } })],
      }),
    );
    expect(Object.keys(json.nodes[0]?.attrs ?? {})).toEqual(['alpha', 'label', 'shape', 'zeta']);
  });

  it('shows the resolved classes (subgraph-derived included) as `class`', () => {
    const json = graphToJson(
      graph({ nodes: [node('a', { attrs: { class: 'x' }, classes: ['x', 'code-review'] })] }),
    );
    expect(json.nodes[0]?.attrs['class']).toBe('x,code-review');
  });

  it('maps a parsed graph: canonical names after aliases, typed values, edges in order', () => {
    const { graph: parsed } = parseDot(
      `digraph p {
        graph [goal="G", default_max_retry=4, team="core"]
        start [shape=Mdiamond]
        work [model="m1", provider="openai", timeout="2m", flavour="x"]
        exit [shape=Msquare]
        start -> work [weight=3, loop_restart=true]
        work -> exit [condition="outcome=success", why="done"]
      }`,
      { file: 'p.dot' },
    );
    const json = graphToJson(parsed);
    expect(json.name).toBe('p');
    expect(json.goal).toBe('G');
    expect(json.attrs).toEqual({ default_max_retries: 4, goal: 'G', team: 'core' });
    const work = json.nodes.find((n) => n.id === 'work');
    expect(work?.handler).toBe('codergen');
    expect(work?.attrs).toMatchObject({
      llm_model: 'm1',
      llm_provider: 'openai',
      timeout: 120_000,
      flavour: 'x',
    });
    expect(work?.attrs).not.toHaveProperty('model');
    expect(json.nodes.find((n) => n.id === 'start')?.handler).toBe('start');
    expect(json.edges).toEqual([
      { source: 'start', target: 'work', attrs: { loop_restart: true, weight: 3 } },
      { source: 'work', target: 'exit', attrs: { condition: 'outcome=success', why: 'done' } },
    ]);
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });
});
