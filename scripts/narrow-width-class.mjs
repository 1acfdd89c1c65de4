// The characters a string-width module measures as one column each, standing alone and beside each other,
// as a regular-expression character class. The TUI bundle (scripts/bundle-tui.mjs) gives string-width a
// fast path with it: a line made only of such characters is as wide as it is long.
//
// Why: string-width's first call on any non-ASCII text (a box border, ✓, a spinner frame) compiles a
// \p{RGI_Emoji} expression and walks grapheme segments, ~60 ms of the TUI's first frame. The class is
// computed from the very module it speeds up, so it cannot disagree with it.

/** Counts grapheme clusters the way string-width splits text. */
function clusters(segmenter, text) {
  let n = 0;
  for (const _ of segmenter.segment(text)) n++;
  return n;
}

/**
 * A code point qualifies when it is one column alone and two when doubled, and it never joins a
 * neighbour into one cluster (not a mark, joiner, prepend or Hangul jamo): then any string of such code
 * points is one cluster per code point, so its width is its length. Astral code points are left to the
 * slow path (their UTF-16 length is not their count).
 */
export function narrowCodePoints(stringWidth) {
  const segmenter = new Intl.Segmenter();
  const ranges = [];
  for (let cp = 0x20; cp <= 0xffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const c = String.fromCharCode(cp);
    if (stringWidth(c) !== 1 || stringWidth(c + c) !== 2) continue;
    if (clusters(segmenter, `a${c}a`) !== 3 || clusters(segmenter, c + c) !== 2) continue;
    const last = ranges.at(-1);
    if (last && last[1] === cp - 1) last[1] = cp;
    else ranges.push([cp, cp]);
  }
  return ranges;
}

const hex = (cp) => `\\u${cp.toString(16).padStart(4, '0')}`;

/** `^[…]*$` over the ranges, as source text for a RegExp (no flags). */
export function narrowLinePattern(ranges) {
  return `^[${ranges.map(([a, b]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`)).join('')}]*$`;
}

/**
 * The module text appended to a string-width module whose default export was renamed to `slowWidth`:
 * the same function, answering plain narrow lines (after removing ANSI codes, as string-width does)
 * without segmenting them.
 */
export function fastPathSource(pattern) {
  return `
const NARROW_LINE = new RegExp(${JSON.stringify(pattern)});
export default function stringWidth(input, options) {
  if (options === undefined && typeof input === 'string') {
    const plain = input.includes('\\u001B') || input.includes('\\u009B') ? stripAnsi(input) : input;
    if (NARROW_LINE.test(plain)) return plain.length;
  }
  return slowWidth(input, options);
}
`;
}
