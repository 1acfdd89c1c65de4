import type { CompletionItem, Range } from 'vscode-languageserver/node';
import { CompletionItemKind } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { AttributeOwner } from '../compiler/attributes/attribute-aliases.js';
import { attributesFor } from '../compiler/attributes/attribute-table.js';
import { SHAPE_HANDLERS } from '../compiler/ir.js';
import { nodeIds, valueChoices } from './complete-value.js';
import { type CursorContext, cursorContext } from './cursor-context.js';
import type { PipelineDocument } from './pipeline-document.js';

const WORD = /[\w.\-#*:]/;

type Item = (label: string, kind: CompletionItemKind, detail?: string, doc?: string) => CompletionItem;

/**
 * Completion at `offset`: attribute names for the list's owner (a node's by its handler type, those
 * already written left out), an attribute's values, node ids after an arrow (and graph attributes
 * where a statement starts). Each item replaces the word at the cursor.
 */
export function complete(doc: TextDocument, analysed: PipelineDocument, offset: number): CompletionItem[] {
  const range = wordRange(doc, analysed.text, offset);
  const item: Item = (label, kind, detail, documentation) => ({
    label,
    kind,
    textEdit: { range, newText: label },
    ...(detail ? { detail } : {}),
    ...(documentation ? { documentation: { kind: 'markdown', value: documentation } } : {}),
  });
  const context = cursorContext(analysed, offset);
  if (context.kind === 'key' && context.owner !== 'subgraph') {
    const handler = context.nodeId === undefined ? undefined : handlerOf(analysed, context.nodeId);
    const written = writtenKeys(analysed, offset, context);
    return attributeItems(context.owner, handler, item).filter((i) => !written.has(i.label));
  }
  if (context.kind === 'value') {
    const value = context.site.value;
    const valueStart = value ? value.start + (value.kind === 'string' ? 1 : 0) : offset;
    const textBefore = analysed.text.slice(valueStart, offset);
    return valueChoices(analysed, context.site, textBefore).map((c) =>
      item(c.label, CompletionItemKind.Value, c.detail),
    );
  }
  if (context.kind === 'node') {
    const ids = nodeIds(analysed).map((id) => item(id, CompletionItemKind.Reference, 'node'));
    return context.statement ? [...ids, ...attributeItems('graph', undefined, item)] : ids;
  }
  return [];
}

function attributeItems(owner: AttributeOwner, handler: string | undefined, item: Item): CompletionItem[] {
  return attributesFor(owner, handler)
    .filter((entry) => entry.read !== 'drawing')
    .map((entry) => item(entry.name, CompletionItemKind.Property, `${entry.on} ${entry.value}`, entry.doc));
}

/** Names already written in the list at the cursor, but the one being typed. */
function writtenKeys(analysed: PipelineDocument, offset: number, context: CursorContext): Set<string> {
  const typing = context.kind === 'key' ? context.site : undefined;
  return new Set(
    analysed.outline.lists
      .filter((list) => offset > list.open && offset <= list.close)
      .flatMap((list) => list.sites.filter((s) => s !== typing).map((s) => s.key.value)),
  );
}

/** The node's handler type: the compiler's, or, while the text does not parse, what its lists say. */
function handlerOf(analysed: PipelineDocument, nodeId: string): string {
  const compiled = analysed.graph?.nodes.find((node) => node.id === nodeId)?.handler;
  if (compiled !== undefined) return compiled;
  const sites = analysed.outline.lists.filter((list) => list.nodeId === nodeId).flatMap((list) => list.sites);
  const written = (key: string) => sites.findLast((site) => site.key.value === key)?.value?.value;
  const shape = written('shape');
  return written('type') ?? (shape !== undefined ? SHAPE_HANDLERS[shape] : undefined) ?? 'codergen';
}

/** The run of word characters around the cursor, up to it (what a completion replaces). */
function wordRange(doc: TextDocument, text: string, offset: number): Range {
  let start = offset;
  while (start > 0 && WORD.test(text[start - 1] ?? '')) start--;
  return { start: doc.positionAt(start), end: doc.positionAt(offset) };
}
