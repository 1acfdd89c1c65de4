import {
  DiagnosticSeverity,
  type Diagnostic as LspDiagnostic,
  type Range,
  type TextEdit,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic, Severity } from '../compiler/diagnostic.js';
import type { SourceLocation } from '../compiler/ir.js';
import { locateEdit } from '../compiler/locate-edit.js';
import { definedFields } from '../shared/defined-fields.js';
import type { DotToken } from './dot-tokens.js';
import type { PipelineDocument } from './pipeline-document.js';

const SEVERITIES: Readonly<Record<Severity, DiagnosticSeverity>> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
};

/** What a diagnostic carries to its quick fix (`data`): the edits, already placed in this version. */
export interface DiagnosticFix {
  title: string;
  edits: TextEdit[];
}

/** The validator's findings as the editor shows them: a range over the token each one points at. */
export function toLspDiagnostics(doc: TextDocument, analysed: PipelineDocument): LspDiagnostic[] {
  return analysed.diagnostics.map((d) => {
    const range = rangeOf(doc, analysed.tokens, d.loc);
    const fix = fixOf(doc, analysed.text, d);
    return {
      range,
      severity: SEVERITIES[d.severity],
      code: d.rule,
      source: 'attractor',
      message: d.fix ? `${d.message}\n${d.fix}` : d.message,
      ...definedFields({ data: fix }),
    };
  });
}

/** The token at a compiler location (a point), or the rest of that line when it is on none. */
export function rangeOf(
  doc: TextDocument,
  tokens: readonly DotToken[],
  loc: SourceLocation | undefined,
): Range {
  if (loc === undefined) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const offset = doc.offsetAt({ line: loc.line - 1, character: loc.column - 1 });
  const token = tokenAt(tokens, offset);
  if (token) return { start: doc.positionAt(token.start), end: doc.positionAt(token.end) };
  const text = doc.getText();
  const lineEnd = text.indexOf('\n', offset);
  return { start: doc.positionAt(offset), end: doc.positionAt(lineEnd === -1 ? text.length : lineEnd) };
}

/** The token containing `offset` (or starting there), by binary search. */
export function tokenAt(tokens: readonly DotToken[], offset: number): DotToken | undefined {
  let lo = 0;
  let hi = tokens.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const token = tokens[mid];
    if (!token) break;
    if (offset < token.start) hi = mid - 1;
    else if (offset >= token.end) lo = mid + 1;
    else return token;
  }
  return undefined;
}

function fixOf(doc: TextDocument, text: string, d: Diagnostic): DiagnosticFix | undefined {
  const edits: TextEdit[] = [];
  for (const edit of d.edits ?? []) {
    const located = locateEdit(text, edit);
    if (!located) return undefined;
    edits.push({
      range: { start: doc.positionAt(located.start), end: doc.positionAt(located.end) },
      newText: located.newText,
    });
  }
  if (edits.length === 0) return undefined;
  const first = d.edits?.[0];
  return { title: `Change "${first?.find}" to "${first?.replace}"`, edits };
}
