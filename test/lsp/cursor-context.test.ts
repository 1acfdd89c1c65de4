import { describe, expect, it } from 'vitest';
import { cursorContext } from '../../src/lsp/cursor-context.js';
import { analyzePipeline } from '../../src/lsp/pipeline-document.js';

/** The context at the `|` of `marked`, as kind, owner, node and attribute name. */
function contextAt(marked: string) {
  const offset = marked.indexOf('|');
  const doc = analyzePipeline(marked.slice(0, offset) + marked.slice(offset + 1));
  const context = cursorContext(doc, offset);
  if (context.kind === 'key' || context.kind === 'value') {
    return [context.kind, context.owner, context.nodeId, context.site?.key.value];
  }
  return [context.kind, context.kind === 'node' ? context.id : undefined];
}

describe('cursorContext: what the cursor is on, in text as typed', () => {
  it.each([
    ['a new key in a node', 'digraph p { a [shape=box, |] }', ['key', 'node', 'a', undefined]],
    ['a key being typed', 'digraph p { a [pro|] }', ['key', 'node', 'a', 'pro']],
    ['a value after =', 'digraph p { a [shape=|] }', ['value', 'node', 'a', 'shape']],
    ['a quoted value', 'digraph p { a [prompt="do |it"] }', ['value', 'node', 'a', 'prompt']],
    ['a dotted key', 'digraph p { g [human.time|out="5m"] }', ['key', 'node', 'g', 'human.timeout']],
    ['an unclosed list at the end', 'digraph p { a [shape=Ms|', ['value', 'node', 'a', 'shape']],
    ['an edge attribute', 'digraph p { a -> b [cond|ition="x"] }', ['key', 'edge', undefined, 'condition']],
    ['an edge chain attribute', 'digraph p { a -> b -> c [|] }', ['key', 'edge', undefined, undefined]],
    ['a node default', 'digraph p { node [|] }', ['key', 'node', undefined, undefined]],
    ['a graph list', 'digraph p { graph [go|al="x"] }', ['key', 'graph', undefined, 'goal']],
    [
      'a graph statement value',
      'digraph p { model_stylesheet="* { |}" }',
      ['value', 'graph', undefined, 'model_stylesheet'],
    ],
    [
      'a subgraph statement',
      'digraph p { subgraph s { lab|el="x" } }',
      ['key', 'subgraph', undefined, 'label'],
    ],
    ['an edge end', 'digraph p { a -> b|c }', ['node', 'bc']],
    ['after an arrow', 'digraph p { a -> | }', ['node', undefined]],
    ['a node in a group', 'digraph p { a -> {b| c} }', ['node', 'b']],
    ['a commented-out list', 'digraph p { // a [sha|pe=box]\n}', ['none', undefined]],
  ])('%s', (_what, marked, expected) => {
    expect(contextAt(marked)).toEqual(expected);
  });
});
