// Changes the TUI bundle (scripts/bundle-tui.mjs) makes to how Ink turns a frame into text, measured
// with bench/tui-stream.mjs (docs/decisions.md D21.9), and to Ink's caches that never let go of anything. Each of Ink's frames lays the whole screen
// out again: every line is tokenized into styled characters, placed in a grid of cells, and each grid row
// is turned back into a string. While an agent streams text, nearly all of those lines are the same as
// in the frame before.
//
// The sources are kept here, apart from the build, so the tests run them against the modules they replace.

/**
 * A map of two generations: when the current one holds `limit` entries it becomes the old one, and an
 * entry read from the old one moves to the current one. What is in use stays; the rest goes with the old
 * generation; never more than 2 × limit entries.
 */
export const generationMapSource = `class GenerationMap {
    constructor(limit) { this.limit = limit; this.current = new Map(); this.old = new Map(); }
    get(key) {
        const value = this.current.get(key);
        if (value !== undefined) return value;
        const old = this.old.get(key);
        if (old !== undefined) this.set(key, old);
        return old;
    }
    set(key, value) {
        if (this.current.size >= this.limit) {
            this.old = this.current;
            this.current = new Map();
        }
        this.current.set(key, value);
    }
}`;

/** Entries per generation: a screen holds well under a hundred distinct lines. */
export const OUTPUT_CACHE_LIMIT = 2000;

/**
 * Ink's `Output` (one per frame, two with <Static>) caches a line's styled characters and string widths,
 * but each starts empty, so every frame tokenized every line again. All Outputs share one set instead.
 * And its grid starts as one blank cell object per cell (4,000 a frame at 100 × 40); they all share one,
 * and a row's trailing blank cells are not turned into spaces only to be trimmed off again.
 * Cells and cached characters are only read (a cell is replaced, never changed), so sharing is safe.
 */
export function patchInkOutput(text, file = 'ink/build/output.js') {
  const field = '    caches = new OutputCaches();';
  const blank = /row\.push\(\{\s*type: 'char',\s*value: ' ',\s*fullWidth: false,\s*styles: \[\],\s*\}\);/;
  const rowToText = 'const lineWithoutEmptyItems = line.filter(item => item !== undefined);';
  if (
    !text.includes(field) ||
    !text.includes('class OutputCaches {') ||
    !blank.test(text) ||
    text.split(rowToText).length !== 2
  ) {
    throw new Error(`${file}: Ink's output caches changed; revisit this patch`);
  }
  // A row's trailing blank cells only become spaces that trimEnd() removes again: they are left out.
  const trimmedRowToText = `let end = line.length;
            while (end > 0 && line[end - 1] === BLANK_CELL) end--;
            const lineWithoutEmptyItems = (end === line.length ? line : line.slice(0, end)).filter(item => item !== undefined);`;
  return `${text
    .replace(field, '    caches = sharedOutputCaches;')
    .replace(blank, 'row.push(BLANK_CELL);')
    .replace(rowToText, () => trimmedRowToText)}
const BLANK_CELL = Object.freeze({ type: 'char', value: ' ', fullWidth: false, styles: Object.freeze([]) });
${generationMapSource}
const sharedOutputCaches = new OutputCaches();
sharedOutputCaches.widths = new GenerationMap(${OUTPUT_CACHE_LIMIT});
sharedOutputCaches.blockWidths = new GenerationMap(${OUTPUT_CACHE_LIMIT});
sharedOutputCaches.styledChars = new GenerationMap(${OUTPUT_CACHE_LIMIT});
`;
}

/**
 * Ink remembers every text it ever measured (`measure-text.js`, a Map) and every text it wrapped or
 * truncated (`wrap-text.js`, an object) for the life of the process, so an agent streaming for hours
 * grows both without bound. Both become generation maps (at most 2 × OUTPUT_CACHE_LIMIT entries).
 */
export function patchInkMeasureText(text, file = 'ink/build/measure-text.js') {
  const declaration = 'const cache = new Map();';
  if (text.split(declaration).length !== 2 || !text.includes('cache.get(text)')) {
    throw new Error(`${file}: Ink's text measuring changed; revisit this patch`);
  }
  return text.replace(
    declaration,
    `${generationMapSource}\nconst cache = new GenerationMap(${OUTPUT_CACHE_LIMIT});`,
  );
}

export function patchInkWrapText(text, file = 'ink/build/wrap-text.js') {
  const uses = [
    ['const cache = {};', `${generationMapSource}\nconst cache = new GenerationMap(${OUTPUT_CACHE_LIMIT});`],
    ['const cachedText = cache[cacheKey];', 'const cachedText = cache.get(cacheKey);'],
    ['cache[cacheKey] = wrappedText;', 'cache.set(cacheKey, wrappedText);'],
  ];
  if (!uses.every(([from]) => text.split(from).length === 2) || text.split('cache[').length !== 3) {
    throw new Error(`${file}: Ink's text wrapping changed; revisit this patch`);
  }
  return uses.reduce((patched, [from, to]) => patched.replace(from, () => to), text);
}

/**
 * ansi-tokenize's `styledCharsToString`, with one shortcut: between two cells with the same styles (the
 * same code objects, as the characters of one styled run have) there is nothing to switch, so the diff
 * (three Sets and four arrays per cell) is skipped. Everything else goes the original way, so the text
 * is the same (test/scripts/ink-output-patches.test.ts).
 */
export const styledCharsToStringSource = `function sameStyles(a, b) {
    if (a === b) return true;
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
}
function styledCharsToString(chars) {
    let ret = "";
    for (let i = 0; i < chars.length; i++) {
        const char = chars[i];
        if (i === 0) {
            if (char.styles.length > 0) ret += ansiCodesToString(char.styles);
        }
        else if (!sameStyles(chars[i - 1].styles, char.styles)) {
            ret += ansiCodesToString(diffAnsiCodes(chars[i - 1].styles, char.styles));
        }
        ret += char.value;
        if (i === chars.length - 1 && char.styles.length > 0) {
            ret += ansiCodesToString(diffAnsiCodes(char.styles, []));
        }
    }
    return ret;
}`;

export function patchStyledChars(text, file = '@alcalzone/ansi-tokenize/build/styledChars.js') {
  const original = 'export function styledCharsToString(chars) {';
  // The characters of one run share its styles array (a new one is made for each change, never altered),
  // instead of a copy each: fewer allocations, and the shortcut above sees them as the same at once.
  const copied = 'styles: [...codes],';
  // And a character is built as a literal of the char token's three fields, not a spread of it.
  const spread = '...token,';
  const imports = [
    'import { ansiCodesToString } from "./ansiCodes.js";',
    'import { diffAnsiCodes } from "./diff.js";',
  ];
  if (
    !text.includes(original) ||
    !text.includes(copied) ||
    text.split(spread).length !== 2 ||
    !imports.every((line) => text.includes(line))
  ) {
    throw new Error(`${file}: ansi-tokenize's styledCharsToString changed; revisit this patch`);
  }
  return `${text.replace(original, 'function originalStyledCharsToString(chars) {').replace(copied, 'styles: codes,').replace(spread, 'type: token.type, value: token.value, fullWidth: token.fullWidth,')}
${styledCharsToStringSource}
export { styledCharsToString };
`;
}

/**
 * ansi-tokenize walks a line grapheme by grapheme with `Intl.Segmenter`, which costs about as much as
 * everything else in a frame together for the lines that are new in it. A line made only of ESC (ANSI
 * codes are ESC and printable ASCII) and characters that never join a neighbour into one grapheme
 * (`narrowPattern`, scripts/narrow-width-class.mjs) has one grapheme per UTF-16 unit, so it is walked
 * unit by unit; any other line goes through the segmenter as before.
 */
export function patchTokenize(text, narrowPattern, file = '@alcalzone/ansi-tokenize/build/tokenize.js') {
  const loop = 'for (const { segment, index } of segmenter.segment(str)) {';
  if (!text.includes(loop) || !narrowPattern.startsWith('^[')) {
    throw new Error(`${file}: ansi-tokenize's tokenize changed; revisit this patch`);
  }
  const oneUnitGraphemes = `^[\\u001b${narrowPattern.slice(2)}`;
  return `${text.replace(loop, 'for (const { segment, index } of graphemesOf(str)) {')}
const ONE_UNIT_GRAPHEMES = new RegExp(${JSON.stringify(oneUnitGraphemes)});
function graphemesOf(str) {
    if (!ONE_UNIT_GRAPHEMES.test(str)) return segmenter.segment(str);
    const units = new Array(str.length);
    for (let index = 0; index < str.length; index++) units[index] = { segment: str[index], index };
    return units;
}
`;
}
