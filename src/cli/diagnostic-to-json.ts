import type { Diagnostic } from '../compiler/diagnostic.js';
import type { AttractorError } from '../shared/errors.js';

/** One `validate --json` diagnostic, keys in contract order, absent fields omitted. */
export function diagnosticToJson(d: Diagnostic): Diagnostic {
  const out: Diagnostic = { rule: d.rule, severity: d.severity, message: d.message };
  if (d.node_id !== undefined) out.node_id = d.node_id;
  if (d.edge !== undefined) out.edge = { source: d.edge.source, target: d.edge.target };
  if (d.fix !== undefined) out.fix = d.fix;
  if (d.edits !== undefined) out.edits = d.edits.map((edit) => ({ ...edit }));
  if (d.loc !== undefined) out.loc = d.loc;
  return out;
}

/**
 * Input that never became a graph (missing file, syntax error) is still reported as JSON, as one
 * error diagnostic whose rule is the error code in lower case (`dot_syntax`, `file_empty`, ...),
 * so scripts parsing `--json` always get JSON.
 */
export function errorToDiagnostic(error: AttractorError): Diagnostic {
  const d: Diagnostic = { rule: error.code.toLowerCase(), severity: 'error', message: error.message };
  if (error.location) d.loc = error.location;
  return d;
}

export type { AttractorError };
