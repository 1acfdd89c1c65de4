import type { Hover } from 'vscode-languageserver/node';
import type { AttributeEntry } from '../compiler/attributes/attribute-entry.js';
import { findAttribute } from '../compiler/attributes/attribute-table.js';
import { SHAPE_HANDLERS } from '../compiler/ir.js';
import { cursorContext } from './cursor-context.js';
import type { PipelineDocument } from './pipeline-document.js';

/** The attribute table's documentation of the name under the cursor, or what a node id is. */
export function hoverAt(analysed: PipelineDocument, offset: number): Hover | undefined {
  const context = cursorContext(analysed, offset);
  if ((context.kind === 'key' || context.kind === 'value') && context.site && context.owner !== 'subgraph') {
    const name = context.site.key.value;
    if (context.kind === 'value' && name === 'shape') {
      const handler = SHAPE_HANDLERS[context.site.value?.value ?? ''];
      return markdown(
        handler
          ? `Shape **${context.site.value?.value}** runs the \`${handler}\` handler.`
          : 'Not a pipeline shape: the node runs as codergen.',
      );
    }
    const entry = findAttribute(context.owner, name);
    return entry ? markdown(describeEntry(entry, name)) : undefined;
  }
  if (context.kind === 'node' && context.id !== undefined) {
    const node = analysed.graph?.nodes.find((n) => n.id === context.id);
    if (!node) return undefined;
    const label = node.attrs.label && node.attrs.label !== node.id ? ` — ${node.attrs.label}` : '';
    const prompt = node.attrs.prompt ? `\n\n${node.attrs.prompt.split('\n')[0]?.slice(0, 200)}` : '';
    return markdown(`**${node.id}**${label}: \`${node.handler}\` node${prompt}`);
  }
  return undefined;
}

function describeEntry(entry: AttributeEntry, written: string): string {
  const alias = written === entry.name ? '' : ` (\`${written}\` is an alias)`;
  const where =
    entry.handlers.length > 0 ? `, on ${entry.handlers.map((h) => `\`${h}\``).join(', ')} nodes` : '';
  const values = entry.values ? `: ${entry.values.map((v) => `\`${v}\``).join(' | ')}` : '';
  return `**${entry.name}**${alias} — ${entry.on} attribute, ${entry.value}${values}${where}\n\n${entry.doc}`;
}

function markdown(value: string): Hover {
  return { contents: { kind: 'markdown', value } };
}
