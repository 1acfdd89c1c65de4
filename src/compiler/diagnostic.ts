import type { SourceLocation } from './ir.js';

export type Severity = 'error' | 'warning' | 'info';

/**
 * A mechanical fix, said so an editor or `validate --json` reader can apply it: at `loc`, the first
 * `find` (searched after the attribute's `=` when `inValue`, on the same line) becomes `replace`.
 * Located by text rather than by a span because the compiler's locations are points.
 */
export interface DiagnosticEdit {
  loc: SourceLocation;
  find: string;
  replace: string;
  inValue?: boolean;
}

/** One finding of a parse, attribute or lint pass. The JSON shape is the `validate --json` contract. */
export interface Diagnostic {
  rule: string;
  severity: Severity;
  message: string;
  node_id?: string;
  edge?: { source: string; target: string };
  fix?: string;
  /** The fix as edits, where it is mechanical (did-you-mean); `fix` still says it in words. */
  edits?: DiagnosticEdit[];
  loc?: SourceLocation;
}
