import { describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { complete } from '../../src/lsp/completion.js';
import { analyzePipeline } from '../../src/lsp/pipeline-document.js';

/** Completion labels at the `|` of `marked`. */
function labelsAt(marked: string): string[] {
  const offset = marked.indexOf('|');
  const text = marked.slice(0, offset) + marked.slice(offset + 1);
  const doc = TextDocument.create('file:///p.dot', 'dot', 1, text);
  return complete(doc, analyzePipeline(text), offset).map((item) => item.label);
}

describe('completion while the text does not parse yet', () => {
  it.each([
    [
      'a tool node by its shape',
      'digraph p {\n  t [shape=parallelogram, |',
      ['tool_command', 'sandbox'],
      ['prompt', 'shape'],
    ],
    ['a tool node by its type', 'digraph p {\n  t [type="tool" |', ['tool_command'], ['prompt', 'type']],
    ['a gate', 'digraph p {\n  g [shape=hexagon |\n  a -> ', ['human.timeout', 'prompt'], ['tool_command']],
    [
      'a codergen node by default',
      'digraph p {\n  w [|',
      ['prompt', 'llm_model'],
      ['tool_command', 'join_policy'],
    ],
    ['an edge', 'digraph p {\n  a -> b [|', ['condition', 'weight', 'loop_restart'], ['prompt']],
    [
      'node ids after an arrow',
      'digraph p {\n  plan [prompt="x"]\n  start -> |',
      ['plan', 'start'],
      ['prompt'],
    ],
  ])('%s', (_what, marked, expected, unexpected) => {
    const labels = labelsAt(marked);
    for (const label of expected) expect(labels).toContain(label);
    for (const label of unexpected) expect(labels).not.toContain(label);
  });
});
