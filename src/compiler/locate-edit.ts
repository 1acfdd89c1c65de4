import type { DiagnosticEdit } from './diagnostic.js';

/** Where a {@link DiagnosticEdit} applies in `source`: offsets of the text to replace, and what replaces it. */
export interface LocatedEdit {
  start: number;
  end: number;
  newText: string;
}

/**
 * Finds the text a diagnostic's edit replaces, searching from its location to the end of that line
 * (past the first `=` for a value). Undefined when the text there changed since the diagnostic was made.
 */
export function locateEdit(source: string, edit: DiagnosticEdit): LocatedEdit | undefined {
  const lineStart = offsetOfLine(source, edit.loc.line);
  if (lineStart === undefined) return undefined;
  const lineEnd = source.indexOf('\n', lineStart);
  const line = source.slice(lineStart, lineEnd === -1 ? source.length : lineEnd);
  let from = edit.loc.column - 1;
  if (edit.inValue) {
    const equals = line.indexOf('=', from);
    if (equals === -1) return undefined;
    from = equals + 1;
  }
  const at = line.indexOf(edit.find, from);
  if (at === -1) return undefined;
  return { start: lineStart + at, end: lineStart + at + edit.find.length, newText: edit.replace };
}

function offsetOfLine(source: string, line: number): number | undefined {
  let offset = 0;
  for (let current = 1; current < line; current++) {
    const next = source.indexOf('\n', offset);
    if (next === -1) return undefined;
    offset = next + 1;
  }
  return offset;
}
