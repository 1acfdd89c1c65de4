import { extraIndent, findAllLineMatches, NORMALISERS } from './find-hunk-lines.js';

export type FuzzyReplace =
  | { kind: 'replaced'; text: string }
  | { kind: 'ambiguous'; count: number }
  | { kind: 'not_found' };

/**
 * The fallback of `edit_file` when `oldString` is not in the file verbatim (allows fuzzy
 * matching): whole lines compared ignoring trailing whitespace, then indentation, then whitespace runs and
 * typographic punctuation — the first comparison that finds anything decides. A unique match is replaced
 * by `newString`, shifted by the indentation the file has on top of `oldString`; several matches are
 * ambiguous, as an exact duplicate would be.
 */
export function fuzzyLineReplace(text: string, oldString: string, newString: string): FuzzyReplace {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  const needle = trimFinalEmpty(oldString.split(/\r?\n/));
  if (needle.every((line) => line.trim() === '')) return { kind: 'not_found' };
  for (const normalise of NORMALISERS.slice(1)) {
    const found = findAllLineMatches(lines, needle, normalise);
    if (found.length === 0) continue;
    if (found.length > 1) return { kind: 'ambiguous', count: found.length };
    const at = found[0]!;
    const matched = lines.slice(at, at + needle.length);
    const shift = extraIndent(needle, matched);
    const replacement = trimFinalEmpty(newString.split(/\r?\n/)).map((line) =>
      line.trim() === '' ? line : shift + line,
    );
    lines.splice(at, needle.length, ...replacement);
    return { kind: 'replaced', text: lines.join(eol) };
  }
  return { kind: 'not_found' };
}

/** `"a\nb\n"` names the lines a and b, not a, b and an empty third. */
function trimFinalEmpty(lines: string[]): string[] {
  return lines.length > 1 && lines.at(-1) === '' ? lines.slice(0, -1) : lines;
}
