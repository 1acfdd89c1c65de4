import { describe, expect, it } from 'vitest';
import { locateEdit } from '../../../src/compiler/locate-edit.js';
import { parseDot } from '../../../src/compiler/parse/parse-dot.js';

const pipeline = (body: string) =>
  `digraph p {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n${body}\n  start -> exit\n}\n`;

const unknowns = (source: string) =>
  parseDot(source, { file: 'p.dot' }).diagnostics.filter((d) => d.rule === 'attribute_unknown');

describe('attribute_unknown: did you mean, from the attribute table', () => {
  it.each([
    ['a node attribute', '  a [promt="x"]', 'promt', 'prompt'],
    ['a dotted node attribute', '  g [shape=hexagon, human.timout="5m"]', 'human.timout', 'human.timeout'],
    ['an attribute read from extras', '  a [tool_hooks.pr="x"]', 'tool_hooks.pr', 'tool_hooks.pre'],
    ['a case slip', '  a [Prompt="x"]', 'Prompt', 'prompt'],
    ['an alias misspelt', '  a [modle="x"]', 'modle', 'model'],
    ['a graph attribute', '  goall="ship it"', 'goall', 'goal'],
    ['a graph attribute read from extras', '  max_cost_usdd=2', 'max_cost_usdd', 'max_cost_usd'],
    ['an edge attribute', '  start -> exit [conditon="outcome=success"]', 'conditon', 'condition'],
    ['a quoted key', '  a ["promt"="x"]', 'promt', 'prompt'],
  ])('%s: %s', (_what, line, written, meant) => {
    const source = pipeline(line);
    const [finding, ...more] = unknowns(source);
    expect(more).toEqual([]);
    expect(finding?.message).toContain(`"${written}" (did you mean "${meant}"?)`);
    expect(finding?.severity).toBe('warning');
    expect(finding?.loc).toMatchObject({ file: 'p.dot', line: 4 });
    const edit = finding?.edits?.[0];
    const located = edit && locateEdit(source, edit);
    expect(located && source.slice(located.start, located.end)).toBe(written);
    const fixed = located && source.slice(0, located.start) + located.newText + source.slice(located.end);
    expect(fixed && unknowns(fixed)).toEqual([]);
  });

  it.each([
    ['gate metadata for interviewers', '  g [shape=hexagon, ui.hint="look at the diff", owner="ops"]'],
    [
      'Graphviz drawing attributes',
      '  a [xlabel="x", style=filled, fillcolor=red, width=2]\n  start -> exit [dir=back, xlabel="y"]',
    ],
    ['graph drawing attributes', '  rankdir=LR\n  splines=ortho'],
    [
      'every alias',
      '  a [model="m", provider="anthropic", retry_preset="patient", classes="x"]\n  default_max_retry=2',
    ],
    ["a custom handler's own attribute", '  d [type="deploy", deploy.environment="staging"]'],
  ])('leaves %s alone', (_what, line) => {
    expect(unknowns(pipeline(line))).toEqual([]);
  });

  it("reports a misspelt default once, at the default, and an edge chain's once", () => {
    const source = 'digraph p {\n  node [promt="x"]\n  a; b; c\n  a -> b -> c [wieght=2]\n}\n';
    const found = unknowns(source);
    expect(found.map((d) => [d.loc?.line, d.node_id, d.message.slice(0, 24)])).toEqual([
      [2, undefined, 'The node [...] default: '],
      [4, undefined, 'Edge a -> b: unknown edg'],
    ]);
  });
});
