import type { Diagnostic } from '../../diagnostic.js';
import type { SourceLocation } from '../../ir.js';

/**
 * The structured fix of a misspelt value: `value` becomes `near` in the attribute written at `loc`.
 * Nothing when no near value was found, or the attribute was not written there (a default, the stylesheet).
 */
export function replaceValue(
  loc: SourceLocation | undefined,
  value: string,
  near: string | undefined,
): Pick<Diagnostic, 'edits'> {
  return loc !== undefined && near !== undefined
    ? { edits: [{ loc, find: value, replace: near, inValue: true }] }
    : {};
}

/** ` (did you mean "x"?)` when there is a near value, else nothing. */
export function didYouMean(near: string | undefined): string {
  return near === undefined ? '' : ` (did you mean "${near}"?)`;
}
