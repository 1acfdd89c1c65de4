import { DotStructureCheck } from './dot-structure-check.js';
import { DotSyntaxError } from './dot-syntax-error.js';
import { PositionMap } from './position-map.js';

export interface PrelexResult {
  /** Text ts-graphviz can read. */
  text: string;
  /** From offsets in `text` to the user's lines and columns. */
  map: PositionMap;
}

const NUMERAL = /^-?(\.\d+|\d+(\.\d*)?)$/;

/**
 * Rewrites the DOT that Graphviz accepts but ts-graphviz 3.0.7 rejects (docs/semantics.md) into an
 * equivalent text, outside comments and `<...>` HTML ids:
 * - `"a" + "b"` is folded into `"ab"`;
 * - a raw newline inside a quoted string becomes the escape `\n`; backslash-newline is dropped;
 * - `a [x=1][y=2]` becomes `a [x=1  y=2]` (one list, same length);
 * - comments are blanked out (ts-graphviz rejects them in some places DOT allows them);
 * - bare words with dots or dashes (`manager.actions=observe`, `claude-sonnet-4`) are quoted.
 * Every rewrite is recorded in the returned {@link PositionMap}. The structure checks of
 * {@link DotStructureCheck} run on the same walk.
 */
export function prelexDot(source: string, options: { file?: string; maxNestingDepth: number }): PrelexResult {
  const map = new PositionMap(source, options.file);
  const check = new DotStructureCheck(map, options.maxNestingDepth);
  const out: string[] = [];
  const n = source.length;
  let outLength = 0;
  let copyFrom = 0;

  const flush = (to: number): void => {
    if (to > copyFrom) {
      map.addSegment(outLength, copyFrom);
      out.push(source.slice(copyFrom, to));
      outLength += to - copyFrom;
    }
    copyFrom = Math.max(copyFrom, to);
  };
  const replace = (from: number, to: number, text: string): void => {
    flush(from);
    map.addSegment(outLength, from);
    out.push(text);
    outLength += text.length;
    copyFrom = to;
  };
  const fail = (offset: number, message: string): never => {
    throw new DotSyntaxError(message, { location: map.locateSource(offset) });
  };

  /**
   * Index after whitespace and comments starting at `from`. With `blank`, comments are overwritten by
   * spaces (newlines kept): ts-graphviz does not accept comments everywhere DOT does (`a // x\n -> b`).
   */
  const skipTrivia = (from: number, blank = false): number => {
    let i = from;
    while (i < n) {
      const c = source[i]!;
      let end = i;
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v') {
        i++;
        continue;
      }
      if (c === '#' || (c === '/' && source[i + 1] === '/')) end = endOfLine(source, i);
      else if (c === '/' && source[i + 1] === '*') end = endOfBlockComment(i);
      else break;
      if (blank) replace(i, end, source.slice(i, end).replace(/[^\n\r]/g, ' '));
      i = end;
    }
    return i;
  };
  const endOfBlockComment = (start: number): number => {
    const close = source.indexOf('*/', start + 2);
    if (close === -1)
      fail(start, 'This "/*" comment is never closed: expected "*/" before the end of the file.');
    return close + 2;
  };

  const lexString = (start: number): number => {
    let i = start + 1;
    for (;;) {
      if (i >= n) {
        fail(start, 'This quoted string is never closed: expected a closing " before the end of the file.');
      }
      const c = source[i];
      if (c === '\\') {
        const next = source[i + 1];
        if (next === '\n') {
          replace(i, i + 2, '');
          i += 2;
        } else if (next === '\r' && source[i + 2] === '\n') {
          replace(i, i + 3, '');
          i += 3;
        } else {
          i += 2;
        }
      } else if (c === '\n' || c === '\r') {
        const width = c === '\r' && source[i + 1] === '\n' ? 2 : 1;
        replace(i, i + width, '\\n');
        i += width;
      } else if (c === '"') {
        const plus = skipTrivia(i + 1);
        if (source[plus] === '+') {
          const open = skipTrivia(plus + 1);
          if (source[open] === '"') {
            replace(i, open + 1, '');
            i = open + 1;
            continue;
          }
        }
        return i + 1;
      } else {
        i++;
      }
    }
  };

  const lexHtml = (start: number): number => {
    let depth = 0;
    for (let i = start; i < n; i++) {
      if (source[i] === '<') depth++;
      else if (source[i] === '>' && --depth === 0) return i + 1;
    }
    return fail(start, 'This "<" starts an HTML-like id that is never closed: expected a matching ">".');
  };

  let i = 0;
  if (source.charCodeAt(0) === 0xfeff) {
    replace(0, 1, '');
    i = 1;
  }
  while (i < n) {
    const t = skipTrivia(i, true);
    if (t >= n) break;
    i = t;
    const c = source[i]!;
    if (c === '"') {
      check.token(i, '"');
      i = lexString(i);
    } else if (c === '<') {
      check.token(i, '<');
      i = lexHtml(i);
    } else if (c === '{') {
      check.open(i);
      i++;
    } else if (c === '}') {
      check.close(i);
      i++;
    } else if (c === '[') {
      check.bracketOpen(i);
      i++;
    } else if (c === ']') {
      check.bracketClose(i);
      const next = skipTrivia(i + 1);
      if (source[next] === '[') {
        replace(i, i + 1, ' ');
        skipTrivia(i + 1, true);
        replace(next, next + 1, ' ');
        i = next + 1;
      } else {
        i++;
      }
    } else if (isWordChar(source.charCodeAt(i))) {
      const end = endOfWord(source, i);
      const word = source.slice(i, end);
      if (isWordStart(source.charCodeAt(i))) check.word(word, i);
      else check.token(i, word);
      if ((word.includes('.') || word.includes('-')) && !NUMERAL.test(word)) replace(i, end, `"${word}"`);
      i = end;
    } else {
      check.token(i, c);
      i++;
    }
  }
  check.finish(n);
  flush(n);
  return { text: out.join(''), map };
}

function endOfLine(source: string, from: number): number {
  const eol = source.indexOf('\n', from);
  return eol === -1 ? source.length : eol;
}

function isWordStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code >= 0x80;
}

function isWordChar(code: number): boolean {
  return isWordStart(code) || (code >= 48 && code <= 57);
}

/**
 * End of a run of word characters, where single dots and dashes between word characters also count
 * (`gpt-5.2`, `manager.actions`), but never the `-` of `->` or `--`.
 */
function endOfWord(source: string, from: number): number {
  let i = from;
  for (;;) {
    while (i < source.length && isWordChar(source.charCodeAt(i))) i++;
    const c = source[i];
    if ((c === '.' || c === '-') && i + 1 < source.length && isWordChar(source.charCodeAt(i + 1))) {
      i++;
      continue;
    }
    return i;
  }
}
