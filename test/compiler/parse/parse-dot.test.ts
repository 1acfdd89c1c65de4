import { describe, expect, it } from 'vitest';
import type { PipelineGraph, PipelineNode } from '../../../src/compiler/ir.js';
import { parseDot } from '../../../src/compiler/parse/parse-dot.js';

const parse = (source: string): PipelineGraph => parseDot(source).graph;
const nodeOf = (graph: PipelineGraph, id: string): PipelineNode => {
  const node = graph.nodes.find((n) => n.id === id);
  if (!node) throw new Error(`no node ${id} in ${graph.nodes.map((n) => n.id).join(',')}`);
  return node;
};
const pairs = (graph: PipelineGraph): string[] => graph.edges.map((e) => `${e.source}->${e.target}`);

describe('parseDot: graph name and graph attributes', () => {
  it.each([
    ['digraph my_pipeline { a }', 'my_pipeline'],
    ['digraph "Quoted Name" { a }', 'Quoted Name'],
    ['digraph { a }', 'pipeline'],
    ['digraph "" { a }', 'pipeline'],
    ['DiGraph G { a }', 'G'],
  ])('%s is named %j', (source, name) => {
    expect(parse(source).name).toBe(name);
  });

  it('reads graph [...] blocks and top-level key=value, later wins', () => {
    const graph = parse(`digraph G {
      graph [goal="First", label="L"]
      goal = "Second"
      rankdir=LR
      default_max_retry=3
    }`);
    expect(graph.attrs).toEqual({ goal: 'Second', label: 'L', default_max_retries: 3 });
    expect(graph.extra).toEqual({ rankdir: 'LR' });
    expect(graph.attrLocs.goal).toEqual({ line: 3, column: 7 });
  });

  it('keeps subgraph attributes out of the graph attributes', () => {
    const graph = parse('digraph { goal="g"; subgraph cluster_a { label="A"; goal="inner"; a } }');
    expect(graph.attrs).toEqual({ goal: 'g' });
  });

  it('sets graph.file and file in every location when a file is given', () => {
    const { graph } = parseDot('digraph {\n a -> b\n}', { file: 'pipes/p.dot' });
    expect(graph.file).toBe('pipes/p.dot');
    expect(graph.loc).toEqual({ file: 'pipes/p.dot', line: 1, column: 1 });
    expect(nodeOf(graph, 'a').loc).toEqual({ file: 'pipes/p.dot', line: 2, column: 2 });
    expect(graph.edges[0]!.loc).toEqual({ file: 'pipes/p.dot', line: 2, column: 2 });
  });
});

describe('parseDot: nodes', () => {
  it('declares nodes in order with typed attributes and handlers', () => {
    const graph = parse(`digraph {
      start [shape=Mdiamond]
      work [label="Work", prompt="Do it", max_retries=2, goal_gate=true, timeout="15m"]
      gate [shape=hexagon]
      custom [shape=hexagon, type="my.handler"]
      odd [shape=ellipse]
      done [shape=Msquare]
    }`);
    expect(graph.nodes.map((n) => [n.id, n.handler])).toEqual([
      ['start', 'start'],
      ['work', 'codergen'],
      ['gate', 'wait.human'],
      ['custom', 'my.handler'],
      ['odd', 'codergen'],
      ['done', 'exit'],
    ]);
    expect(nodeOf(graph, 'work').attrs).toEqual({
      label: 'Work',
      prompt: 'Do it',
      max_retries: 2,
      goal_gate: true,
      timeout: 900_000,
    });
    expect(nodeOf(graph, 'work').implicit).toBe(false);
  });

  it('merges a node declared twice, later attributes winning', () => {
    const graph = parse('digraph { a [label="one", prompt="p"]; b; a [label="two"] }');
    expect(graph.nodes.map((n) => n.id)).toEqual(['a', 'b']);
    expect(nodeOf(graph, 'a').attrs).toEqual({ label: 'two', prompt: 'p' });
    expect(nodeOf(graph, 'a').loc).toEqual({ line: 1, column: 11 });
    expect(nodeOf(graph, 'a').attrLocs.label).toEqual({ line: 1, column: 46 });
  });

  it('creates implicit nodes for ids that appear only in edges, with the node defaults of that point', () => {
    const graph = parse(
      'digraph { a [shape=Mdiamond]; node [shape=box, timeout=900s]; a -> b; c; node [shape=Msquare]; b -> d }',
    );
    expect(nodeOf(graph, 'a').implicit).toBe(false);
    expect(nodeOf(graph, 'b')).toMatchObject({ implicit: true, attrs: { shape: 'box', timeout: 900_000 } });
    expect(nodeOf(graph, 'c')).toMatchObject({ implicit: false, attrs: { shape: 'box' } });
    expect(nodeOf(graph, 'd')).toMatchObject({
      implicit: true,
      attrs: { shape: 'Msquare' },
      handler: 'exit',
    });
    expect(graph.nodes.map((n) => n.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('turns an implicit node explicit when it is declared later, locating it at the declaration', () => {
    const graph = parse('digraph {\n a -> b\n b [prompt="x"]\n}');
    expect(nodeOf(graph, 'b')).toMatchObject({ implicit: false, loc: { line: 3, column: 2 } });
  });

  it('applies node defaults only to later declarations (DOT order), explicit attributes winning', () => {
    const graph = parse('digraph { a; node [shape=box, label="dflt"]; b; c [label="own"] }');
    expect(nodeOf(graph, 'a').attrs).toEqual({});
    expect(nodeOf(graph, 'b').attrs).toEqual({ shape: 'box', label: 'dflt' });
    expect(nodeOf(graph, 'c').attrs).toEqual({ shape: 'box', label: 'own' });
    expect(nodeOf(graph, 'b').attrLocs).toEqual({});
  });

  it.each([
    ['class="a b"', ['a', 'b']],
    ['class="a,b"', ['a', 'b']],
    ['class="plan, revise"', ['plan', 'revise']],
    ['classes="x"', ['x']],
    ['class=""', []],
  ])('%s gives classes %j', (attr, classes) => {
    expect(nodeOf(parse(`digraph { n [${attr}] }`), 'n').classes).toEqual(classes);
  });

  it.each([
    ['model="m"', { llm_model: 'm' }],
    ['provider="openai"', { llm_provider: 'openai' }],
    ['retry_preset="patient"', { retry_policy: 'patient' }],
    ['model="a", llm_model="b"', { llm_model: 'b' }],
    ['llm_model="b", model="a"', { llm_model: 'a' }],
  ])('alias %s', (attrs, expected) => {
    expect(nodeOf(parse(`digraph { n [${attrs}] }`), 'n').attrs).toEqual(expected);
  });

  it('keeps unknown attributes in extra', () => {
    const node = nodeOf(
      parse('digraph { n [output_key="k", "manager.actions"="observe", human.default_choice="F"] }'),
      'n',
    );
    expect(node.extra).toEqual({ output_key: 'k' });
    expect(node.attrs).toEqual({ 'manager.actions': 'observe', 'human.default_choice': 'F' });
  });

  it.each(['a', '_a', 'A_1', 'snake_case_id', 'review-1', 'a-b-c'])('accepts node id %j', (id) => {
    expect(parse(`digraph { ${id} }`).nodes[0]!.id).toBe(id);
  });
});

describe('parseDot: subgraphs', () => {
  it('flattens subgraphs, deriving a class and `subgraph` from the label, and scopes defaults', () => {
    const graph = parse(`digraph {
      node [shape=box]
      subgraph cluster_loop {
        label = "Loop A"
        node [thread_id="loop-a", timeout="900s"]
        Plan
        Implement [timeout="1800s"]
      }
      After
    }`);
    expect(nodeOf(graph, 'Plan')).toMatchObject({
      attrs: { shape: 'box', thread_id: 'loop-a', timeout: 900_000 },
      classes: ['loop-a'],
      subgraph: 'Loop A',
    });
    expect(nodeOf(graph, 'Implement').attrs).toEqual({
      shape: 'box',
      thread_id: 'loop-a',
      timeout: 1_800_000,
    });
    const after = nodeOf(graph, 'After');
    expect(after.attrs).toEqual({ shape: 'box' });
    expect(after.classes).toEqual([]);
    expect(after.subgraph).toBeUndefined();
  });

  it.each([
    ['Code Review', 'code-review'],
    ['Loop A', 'loop-a'],
    ['  Phase #2: Build! ', '-phase-2-build-'],
    ['ÜBER', 'ber'],
  ])('label %j gives class %j', (label, cls) => {
    const graph = parse(`digraph { subgraph s { label=${JSON.stringify(label)}; x } }`);
    expect(nodeOf(graph, 'x').classes).toEqual([cls]);
  });

  it('uses a label written after the nodes or in graph [label=...]', () => {
    const graph = parse('digraph { subgraph a { x; label="Late" } subgraph b { graph [label="Block"]; y } }');
    expect(nodeOf(graph, 'x').classes).toEqual(['late']);
    expect(nodeOf(graph, 'y').classes).toEqual(['block']);
  });

  it('gives nested subgraph nodes the classes of every labelled ancestor, own classes first', () => {
    const graph = parse(
      'digraph { subgraph o { label="Outer"; subgraph i { label="Inner"; x [class="mine"] } y } z }',
    );
    expect(nodeOf(graph, 'x')).toMatchObject({ classes: ['mine', 'outer', 'inner'], subgraph: 'Inner' });
    expect(nodeOf(graph, 'y')).toMatchObject({ classes: ['outer'], subgraph: 'Outer' });
    expect(nodeOf(graph, 'z').classes).toEqual([]);
  });

  it('makes nodes first mentioned by an edge inside a subgraph members of it', () => {
    const graph = parse('digraph { a; subgraph s { label="S"; a -> b } }');
    expect(nodeOf(graph, 'b').classes).toEqual(['s']);
    expect(nodeOf(graph, 'a').classes).toEqual([]);
  });

  it('restores edge defaults when the subgraph closes', () => {
    const graph = parse('digraph { edge [weight=1]; subgraph { edge [weight=5]; a -> b } c -> d }');
    expect(graph.edges.map((e) => e.attrs.weight)).toEqual([5, 1]);
  });
});

describe('parseDot: edges', () => {
  it('expands a chain into one edge per pair, attributes on each', () => {
    const graph = parse('digraph { a -> b -> c [label="next", weight=2] }');
    expect(pairs(graph)).toEqual(['a->b', 'b->c']);
    for (const edge of graph.edges) expect(edge.attrs).toEqual({ label: 'next', weight: 2 });
    expect(graph.edges.map((e) => e.index)).toEqual([0, 1]);
  });

  it('expands {b c} groups on either side', () => {
    expect(pairs(parse('digraph { a -> {b c} }'))).toEqual(['a->b', 'a->c']);
    expect(pairs(parse('digraph { {a b} -> {c d} }'))).toEqual(['a->c', 'a->d', 'b->c', 'b->d']);
    expect(pairs(parse('digraph { a -> {b c} -> d }'))).toEqual(['a->b', 'a->c', 'b->d', 'c->d']);
  });

  it('keeps parallel edges between the same nodes distinct, in declaration order', () => {
    const graph = parse(`digraph {
      gate -> plan [label="[A] Approve"]
      gate -> plan [label="[F] Fix"]
      gate -> plan
    }`);
    expect(graph.edges.map((e) => [e.index, e.source, e.target, e.attrs.label])).toEqual([
      [0, 'gate', 'plan', '[A] Approve'],
      [1, 'gate', 'plan', '[F] Fix'],
      [2, 'gate', 'plan', undefined],
    ]);
  });

  it('applies edge defaults to later edges only, explicit attributes winning', () => {
    const graph = parse('digraph { a -> b; edge [fidelity="full", weight=1]; b -> c; c -> d [weight=3] }');
    expect(graph.edges.map((e) => e.attrs)).toEqual([
      {},
      { fidelity: 'full', weight: 1 },
      { fidelity: 'full', weight: 3 },
    ]);
  });

  it('types edge attributes', () => {
    const graph = parse(
      'digraph { a -> b [condition="outcome=success", weight=2.5, loop_restart=true, llm_decide=yes, x=1] }',
    );
    expect(graph.edges[0]).toMatchObject({
      attrs: { condition: 'outcome=success', weight: 2.5, loop_restart: true, llm_decide: true },
      extra: { x: '1' },
    });
  });

  it('ignores ports', () => {
    expect(pairs(parse('digraph { a:out:s -> b:n }'))).toEqual(['a->b']);
  });
});

describe('parseDot: lexical forms', () => {
  it.each([
    ['"Say \\"hi\\""', 'Say "hi"'],
    ['"a\\nb"', 'a\nb'],
    ['"a\\tb"', 'a\tb'],
    ['"back\\\\slash"', 'back\\slash'],
    ['"left\\lright\\r"', 'left\nright\n'],
    ['"keep \\N"', 'keep \\N'],
    ['"two\nlines"', 'two\nlines'],
    ['"crlf\r\nlines"', 'crlf\nlines'],
    ['"con" + "cat"', 'concat'],
    ['"a" +\n  "b" + "c"', 'abc'],
    ['"cont\\\ninued"', 'continued'],
    ['bare_word', 'bare_word'],
    ['claude-sonnet-4.5', 'claude-sonnet-4.5'],
    ['-1.5', '-1.5'],
    ['"url // not a comment /* nor this */"', 'url // not a comment /* nor this */'],
    ['"#not a comment"', '#not a comment'],
    ['<<b>html</b>>', '<b>html</b>'],
  ])('prompt=%s reads as %j', (value, expected) => {
    expect(nodeOf(parse(`digraph { n [prompt=${value}] }`), 'n').attrs.prompt).toBe(expected);
  });

  it('skips //, /* */ and # comments', () => {
    const graph = parse(`// leading
# preprocessor-style line
digraph { /* block
 comment */ a // trailing
  -> b # another
}`);
    expect(pairs(graph)).toEqual(['a->b']);
  });

  it.each([
    ['commas', '[label="L", prompt="P", max_retries=1]'],
    ['semicolons', '[label="L"; prompt="P"; max_retries=1]'],
    ['nothing', '[label="L" prompt="P" max_retries=1]'],
    ['newlines', '[\n label="L"\n prompt="P"\n max_retries=1\n]'],
    ['several lists', '[label="L"][prompt="P"] [max_retries=1]'],
    ['trailing comma', '[label="L", prompt="P", max_retries=1,]'],
  ])('attribute list with %s', (_name, list) => {
    expect(nodeOf(parse(`digraph { n ${list} }`), 'n').attrs).toEqual({
      label: 'L',
      prompt: 'P',
      max_retries: 1,
    });
  });

  it('accepts quoted and bare qualified keys', () => {
    const graph = parse(
      'digraph { "manager.max_cycles"=5; manager.poll_interval=30s; stack.child_dotfile="c.dot" }',
    );
    expect(graph.attrs).toEqual({
      'manager.max_cycles': 5,
      'manager.poll_interval': 30_000,
      'stack.child_dotfile': 'c.dot',
    });
  });

  it('accepts a byte-order mark and CRLF line ends', () => {
    const { graph } = parseDot('\uFEFFdigraph G {\r\n  a -> b\r\n  c\r\n}\r\n');
    expect(pairs(graph)).toEqual(['a->b']);
    expect(nodeOf(graph, 'c').loc).toEqual({ line: 3, column: 3 });
  });
});

describe('parseDot: diagnostics', () => {
  it('returns attribute_type warnings with node, location and a fix, leaving the attribute unset', () => {
    const { graph, diagnostics } = parseDot(
      'digraph {\n  n [max_retries="lots", prompt="p"]\n  a -> n [weight=heavy]\n}',
      {
        file: 'd.dot',
      },
    );
    expect(nodeOf(graph, 'n').attrs).toEqual({ prompt: 'p' });
    expect(diagnostics).toEqual([
      expect.objectContaining({
        rule: 'attribute_type',
        severity: 'warning',
        node_id: 'n',
        loc: { file: 'd.dot', line: 2, column: 6 },
        fix: expect.stringContaining('integer'),
      }),
      expect.objectContaining({
        rule: 'attribute_type',
        edge: { source: 'a', target: 'n' },
        loc: { file: 'd.dot', line: 3, column: 11 },
      }),
    ]);
  });

  it('reports a bad node default once, at the default', () => {
    const { diagnostics, graph } = parseDot('digraph {\n node [timeout=soon]\n a; b; c\n}');
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ node_id: 'a', loc: { line: 2, column: 8 } });
    expect(graph.nodes.map((n) => n.attrs.timeout)).toEqual([undefined, undefined, undefined]);
  });

  it('returns no diagnostics for a clean pipeline', () => {
    expect(
      parseDot('digraph { start [shape=Mdiamond]; start -> done; done [shape=Msquare] }').diagnostics,
    ).toEqual([]);
  });
});
