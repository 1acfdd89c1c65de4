/**
 * Ways of comparing a patch line with a file line, strictest first: a hunk is located with the strictest
 * one that finds it, so whitespace drift (re-indented code, trailing spaces, tabs vs spaces) and
 * typographic punctuation (curly quotes, long dashes, non-breaking spaces that models emit for ASCII) do
 * not make an otherwise exact hunk fail, while an exact match always wins over a fuzzy one.
 */
export const NORMALISERS: readonly ((line: string) => string)[] = [
  (line) => line,
  (line) => line.trimEnd(),
  (line) => line.trim(),
  (line) => normalisePunctuation(line).replace(/\s+/g, ' ').trim(),
];

function normalisePunctuation(line: string): string {
  return line
    .replace(/[\u2018\u2019\u201A\u201B]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\u00A0\u2002-\u200A\u202F\u205F\u3000]/g, ' ')
    .replace(/\u2026/g, '...');
}

/**
 * Index in `fileLines` where `needle` occurs at or after `from` (at the very end when `atEnd`), trying each
 * comparison in turn; -1 when none finds it.
 */
export function findHunkLines(
  fileLines: readonly string[],
  needle: readonly string[],
  from: number,
  atEnd = false,
): number {
  for (const normalise of NORMALISERS) {
    const wanted = needle.map(normalise);
    const matchesAt = (start: number) => wanted.every((line, k) => normalise(fileLines[start + k]!) === line);
    if (atEnd) {
      const start = fileLines.length - wanted.length;
      if (start >= from && matchesAt(start)) return start;
    }
    for (let start = from; start + wanted.length <= fileLines.length; start++) {
      if (matchesAt(start)) return start;
    }
  }
  return -1;
}

const leading = (line: string) => /^[ \t]*/.exec(line)![0];

/** The indentation every non-blank matched line has on top of its patch line, or '' when they disagree. */
export function extraIndent(patchLines: readonly string[], fileLines: readonly string[]): string {
  let extra: string | undefined;
  patchLines.forEach((patchLine, k) => {
    const fileLine = fileLines[k] ?? '';
    if (patchLine.trim() === '' || extra === '') return;
    const want = leading(patchLine);
    const have = leading(fileLine);
    const delta = have.endsWith(want) ? have.slice(0, have.length - want.length) : '';
    extra = extra === undefined || extra === delta ? delta : '';
  });
  return extra ?? '';
}

/** Start indices of every non-overlapping occurrence of `needle` in `fileLines` under one comparison. */
export function findAllLineMatches(
  fileLines: readonly string[],
  needle: readonly string[],
  normalise: (line: string) => string,
): number[] {
  const wanted = needle.map(normalise);
  const found: number[] = [];
  for (let start = 0; start + wanted.length <= fileLines.length; start++) {
    if (wanted.every((line, k) => normalise(fileLines[start + k]!) === line)) {
      found.push(start);
      start += wanted.length - 1;
    }
  }
  return found;
}
