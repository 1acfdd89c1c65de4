import { describe, expect, it } from 'vitest';
import { parseDot } from '../../../src/compiler/parse/parse-dot.js';
import { validate } from '../../../src/compiler/validate/validate.js';

/** Our own small pipelines, parsed for real, so locations and implicit nodes come from the parser. */
function lint(source: string) {
  return validate(parseDot(source, { file: 'p.dot' }).graph).map((d) => ({
    rule: d.rule,
    severity: d.severity,
    at: d.loc ? `${d.loc.line}` : '-',
    node: d.node_id ?? (d.edge ? `${d.edge.source}->${d.edge.target}` : 'graph'),
  }));
}

describe('validate on parsed DOT', () => {
  it('a clean pipeline has no findings', () => {
    const source = `digraph ok {
  start [shape=Mdiamond]
  write [prompt="Write a haiku about $goal"]
  done [shape=Msquare]
  start -> write -> done
}`;
    expect(lint(source)).toEqual([]);
  });

  it('finds start and exit by name when no node has the shapes', () => {
    const source = `digraph named {
  start -> write -> exit
  write [prompt="Write."]
}`;
    expect(lint(source)).toEqual([]);
  });

  it('implicit LLM nodes without a prompt get prompt_on_llm_nodes (their label is only their id)', () => {
    const source = `digraph review {
  start [shape=Mdiamond]
  done [shape=Msquare]
  gate [shape=hexagon, label="Approve?"]
  start -> gate
  gate -> ship [label="[A] Approve"]
  gate -> fix [label="[F] Fix"]
  ship -> done
  fix -> gate
}`;
    expect(lint(source)).toEqual([
      { rule: 'prompt_on_llm_nodes', severity: 'warning', at: '6', node: 'ship' },
      { rule: 'prompt_on_llm_nodes', severity: 'warning', at: '7', node: 'fix' },
    ]);
  });

  it('points at the lines of the offending edges and nodes', () => {
    const source = `digraph broken {
  start [shape=Mdiamond]
  a [prompt="A"]
  b [prompt="B"]
  lost [prompt="Lost"]
  done [shape=Msquare]
  start -> a
  a -> b
  b -> a
  b -> done [condition="outcome==success"]
}`;
    expect(lint(source)).toEqual([
      { rule: 'cycles', severity: 'warning', at: '3', node: 'a' },
      { rule: 'reachability', severity: 'error', at: '5', node: 'lost' },
      { rule: 'condition_syntax', severity: 'error', at: '10', node: 'b->done' },
    ]);
  });
});
