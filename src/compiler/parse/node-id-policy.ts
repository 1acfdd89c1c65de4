/**
 * Node ids must be identifiers: they are used in stylesheet `#id` selectors, run directory names,
 * `retry_target` values and events. docs/semantics.md A.2 says `[A-Za-z_][A-Za-z0-9_]*`; we also accept inner
 * dashes (`review-1`), which none of those uses trip over. Dots are refused: `#a.b` would read as
 * id `a` with class `b` in a stylesheet. No file of the corpus uses either.
 */
export const NODE_ID_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*$/;

export function isValidNodeId(id: string): boolean {
  return NODE_ID_PATTERN.test(id);
}
