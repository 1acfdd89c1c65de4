import type { SourceLocation } from './ir.js';

export type Severity = 'error' | 'warning' | 'info';

/** One finding of a parse, attribute or lint pass. The JSON shape is the `validate --json` contract. */
export interface Diagnostic {
  rule: string;
  severity: Severity;
  message: string;
  node_id?: string;
  edge?: { source: string; target: string };
  fix?: string;
  loc?: SourceLocation;
}
