import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Location } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { cursorContext } from './cursor-context.js';
import { nodeDefinition, nodeIdAt } from './node-references.js';
import type { PipelineDocument } from './pipeline-document.js';

const FILE_VALUED = new Set(['prompt', 'label', 'stack.child_dotfile']);

/** A node id goes to its statement; an `@file` prompt (or a child DOT file) to that file. */
export function definitionAt(
  doc: TextDocument,
  analysed: PipelineDocument,
  offset: number,
): Location | undefined {
  const named = namedFile(analysed, offset);
  if (named)
    return {
      uri: pathToFileURL(named).href,
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    };
  const token = nodeIdAt(analysed, offset);
  const target = token && nodeDefinition(analysed, token.value);
  if (!target) return undefined;
  return { uri: doc.uri, range: { start: doc.positionAt(target.start), end: doc.positionAt(target.end) } };
}

/** The file an `@path` prompt or label, or a child DOT file, under the cursor names, when it exists. */
function namedFile(analysed: PipelineDocument, offset: number): string | undefined {
  const context = cursorContext(analysed, offset);
  if (context.kind !== 'value' || !FILE_VALUED.has(context.site.key.value) || !analysed.file)
    return undefined;
  const value = context.site.value?.value.trim() ?? '';
  const name =
    context.site.key.value === 'stack.child_dotfile' ? value : value.startsWith('@') ? value.slice(1) : '';
  if (name === '' || path.isAbsolute(name)) return undefined;
  const resolved = path.resolve(path.dirname(analysed.file), name);
  return existsSync(resolved) ? resolved : undefined;
}
