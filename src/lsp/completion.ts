import type { CompletionItem, Range } from 'vscode-languageserver/node';
import { CompletionItemKind } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { attributesFor } from '../compiler/attributes/attribute-table.js';
import { nodeIds, valueChoices } from './complete-value.js';
import { cursorContext } from './cursor-context.js';
import type { PipelineDocument } from './pipeline-document.js';

const WORD = /[\w.\-#*:]/;

/**
 * Completion at `offset`: attribute names for the list's owner (a node's by its handler type), an
 * attribute's values, or node ids after an arrow. Each item replaces the word at the cursor.
 */
export function complete(doc: TextDocument, analysed: PipelineDocument, offset: number): CompletionItem[] {
  const range = wordRange(doc, analysed.text, offset);
  const item = (label: string, kind: CompletionItemKind, detail?: string, documentation?: string) => ({
    label,
    kind,
    textEdit: { range, newText: label },
    ...(detail ? { detail } : {}),
    ...(documentation ? { documentation: { kind: 'markdown' as const, value: documentation } } : {}),
  });
  const context = cursorContext(analysed, offset);
  if (context.kind === 'key' && context.owner !== 'subgraph') {
    const handler = context.nodeId === undefined ? undefined : handlerOf(analysed, context.nodeId);
    return attributesFor(context.owner, handler)
      .filter((entry) => entry.read !== 'drawing')
      .map((entry) => item(entry.name, CompletionItemKind.Property, entry.value, entry.doc));
  }
  if (context.kind === 'value') {
    const valueStart = context.site.value
      ? context.site.value.start + (context.site.value.kind === 'string' ? 1 : 0)
      : offset;
    const textBefore = analysed.text.slice(valueStart, offset);
    return valueChoices(analysed, context.site, textBefore).map((c) =>
      item(c.label, CompletionItemKind.Value, c.detail),
    );
  }
  if (context.kind === 'node')
    return nodeIds(analysed).map((id) => item(id, CompletionItemKind.Reference, 'node'));
  return [];
}

function handlerOf(analysed: PipelineDocument, nodeId: string): string | undefined {
  return analysed.graph?.nodes.find((node) => node.id === nodeId)?.handler;
}

/** The run of word characters around the cursor, up to it (what a completion replaces). */
function wordRange(doc: TextDocument, text: string, offset: number): Range {
  let start = offset;
  while (start > 0 && WORD.test(text[start - 1] ?? '')) start--;
  return { start: doc.positionAt(start), end: doc.positionAt(offset) };
}
