/** One lexical token of DOT source, with its offsets in the text as the editor holds it. */
export interface DotToken {
  kind: 'id' | 'string' | 'html' | 'arrow' | 'punct';
  /** The token as written (a string with its quotes). */
  text: string;
  /** What it means: a string's content without quotes, else the text. */
  value: string;
  start: number;
  end: number;
}

const PUNCT = new Set(['[', ']', '{', '}', ';', ',', '=', ':', '+']);
const ID_START = /[A-Za-z_\u0080-\uffff]/;
const ID_PART = /[\w.\u0080-\uffff-]/;
const NUMERAL = /^-?(\.\d+|\d+(\.\d*)?)/;

/**
 * Splits DOT source into tokens for the editor: tolerant of unfinished text (an unclosed string or
 * bracket ends at the end of the text), comments skipped. Identifiers keep inner dots and dashes as
 * pipeline attribute names and node ids use them (`human.timeout`); `->` and `--` are arrows.
 */
export function tokenizeDot(source: string): DotToken[] {
  const tokens: DotToken[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i] ?? '';
    const skipped = skipBlank(source, i);
    if (skipped > i) {
      i = skipped;
      continue;
    }
    const end = tokenEnd(source, i, ch);
    const text = source.slice(i, end);
    tokens.push({ kind: kindOf(ch, text), text, value: meaningOf(ch, text), start: i, end });
    i = end;
  }
  return tokens;
}

/** Past whitespace and comments (`//`, `/* *\/`, and `#` lines), or `i` itself. */
function skipBlank(source: string, i: number): number {
  const ch = source[i];
  if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\f') return i + 1;
  if (source.startsWith('//', i) || (ch === '#' && atLineStart(source, i))) {
    const newline = source.indexOf('\n', i);
    return newline === -1 ? source.length : newline;
  }
  if (source.startsWith('/*', i)) {
    const close = source.indexOf('*/', i + 2);
    return close === -1 ? source.length : close + 2;
  }
  return i;
}

function atLineStart(source: string, i: number): boolean {
  const lineStart = source.lastIndexOf('\n', i - 1) + 1;
  return source.slice(lineStart, i).trim() === '';
}

function tokenEnd(source: string, i: number, ch: string): number {
  if (ch === '"') return stringEnd(source, i);
  if (ch === '<') return htmlEnd(source, i);
  if (source.startsWith('->', i) || source.startsWith('--', i)) return i + 2;
  const numeral = NUMERAL.exec(source.slice(i, i + 64));
  if (numeral && !ID_START.test(ch)) return i + numeral[0].length;
  if (ID_START.test(ch)) {
    let end = i + 1;
    while (end < source.length && ID_PART.test(source[end] ?? '') && !isArrow(source, end)) end++;
    // A trailing dash belongs to an arrow (`a--b`), never to the id.
    while (source[end - 1] === '-' && end - 1 > i) end--;
    return end;
  }
  return i + 1;
}

function stringEnd(source: string, i: number): number {
  let end = i + 1;
  while (end < source.length && source[end] !== '"') end += source[end] === '\\' ? 2 : 1;
  return Math.min(end + 1, source.length);
}

function htmlEnd(source: string, i: number): number {
  let depth = 0;
  for (let end = i; end < source.length; end++) {
    if (source[end] === '<') depth++;
    if (source[end] === '>' && --depth === 0) return end + 1;
  }
  return source.length;
}

function kindOf(ch: string, text: string): DotToken['kind'] {
  if (ch === '"') return 'string';
  if (ch === '<') return 'html';
  if (text === '->' || text === '--') return 'arrow';
  if (PUNCT.has(text) || !(ID_START.test(ch) || NUMERAL.test(text))) return 'punct';
  return 'id';
}

function meaningOf(ch: string, text: string): string {
  if (ch !== '"') return text;
  const inner = text.length >= 2 && text.endsWith('"') ? text.slice(1, -1) : text.slice(1);
  return inner.replace(/\\(["\\])/g, '$1').replace(/\\\r?\n/g, '');
}

function isArrow(source: string, i: number): boolean {
  return source.startsWith('->', i) || source.startsWith('--', i);
}
