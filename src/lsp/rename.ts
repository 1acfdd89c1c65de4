import { ResponseError, type TextEdit, type WorkspaceEdit } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { isValidNodeId } from '../compiler/parse/node-id-policy.js';
import type { DotToken } from './dot-tokens.js';
import { nodeIdAt, nodeReferences } from './node-references.js';
import type { PipelineDocument } from './pipeline-document.js';

/** The node id under the cursor, when there is one to rename. */
export function prepareRenameAt(doc: TextDocument, analysed: PipelineDocument, offset: number) {
  const token = nodeIdAt(analysed, offset);
  if (!token) return undefined;
  return { range: contentRange(doc, token), placeholder: token.value };
}

/** Renames a node id across the file: statements, edge ends and retry targets. */
export function renameAt(
  doc: TextDocument,
  analysed: PipelineDocument,
  offset: number,
  newName: string,
): WorkspaceEdit | undefined {
  const token = nodeIdAt(analysed, offset);
  if (!token) return undefined;
  if (!isValidNodeId(newName)) {
    throw new ResponseError(
      -32602,
      `"${newName}" is not a node id: letters, digits and underscores, starting with a letter or underscore.`,
    );
  }
  const edits: TextEdit[] = nodeReferences(analysed, token.value).map((ref) => ({
    range: contentRange(doc, ref),
    newText: newName,
  }));
  return { changes: { [doc.uri]: edits } };
}

/** A token's range without its quotes, so a quoted id stays quoted. */
function contentRange(doc: TextDocument, token: DotToken) {
  const quoted = token.kind === 'string' && token.text.length >= 2;
  return {
    start: doc.positionAt(token.start + (quoted ? 1 : 0)),
    end: doc.positionAt(token.end - (quoted ? 1 : 0)),
  };
}
