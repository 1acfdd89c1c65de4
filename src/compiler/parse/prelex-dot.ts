import { DotStructureCheck } from './dot-structure-check.js';
import { DotSyntaxError } from './dot-syntax-error.js';
import { PositionMap } from './position-map.js';
import { RewrittenText } from './rewritten-text.js';

export interface PrelexResult {
  /** Text ts-graphviz can read. */
  text: string;
  /** From offsets in `text` to the user's lines and columns. */
  map: PositionMap;
}

const NUMERAL = /^-?(\.\d+|\d+(\.\d*)?)$/;

/** The characters a quoted string's lexer must look at; everything else is copied as it is. */
const STRING_SPECIAL = /["\\\n\r]/g;

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
  const lexer = new DotPrelexer(source, map, new DotStructureCheck(map, options.maxNestingDepth));
  return { text: lexer.run(), map };
}

/** One walk over the source: tokens just enough to know where strings, HTML ids and comments are. */
class DotPrelexer {
  private readonly text: RewrittenText;
  private readonly n: number;

  constructor(
    private readonly source: string,
    private readonly map: PositionMap,
    private readonly check: DotStructureCheck,
  ) {
    this.text = new RewrittenText(source, map);
    this.n = source.length;
  }

  run(): string {
    let i = 0;
    if (this.source.charCodeAt(0) === 0xfeff) {
      this.text.replace(0, 1, '');
      i = 1;
    }
    while (i < this.n) {
      const t = this.skipTrivia(i, true);
      if (t >= this.n) break;
      i = this.token(t);
    }
    this.check.finish(this.n);
    return this.text.finish();
  }

  private fail(offset: number, message: string): never {
    throw new DotSyntaxError(message, { location: this.map.locateSource(offset) });
  }

  /** Reads the token at `i` (not trivia), rewriting it if need be; returns the index after it. */
  private token(i: number): number {
    const { source, check } = this;
    const c = source[i]!;
    if (c === '"') {
      check.token(i, '"');
      return this.lexString(i);
    }
    if (c === '<') {
      check.token(i, '<');
      return this.lexHtml(i);
    }
    if (c === '{') check.open(i);
    else if (c === '}') check.close(i);
    else if (c === '[') check.bracketOpen(i);
    else if (c === ']') return this.closeBracket(i);
    else if (isWordChar(source.charCodeAt(i))) return this.word(i);
    else check.token(i, c);
    return i + 1;
  }

  /** `]` followed by `[` (trivia between): the two lists become one, same length. */
  private closeBracket(i: number): number {
    this.check.bracketClose(i);
    const next = this.skipTrivia(i + 1);
    if (this.source[next] !== '[') return i + 1;
    this.text.replace(i, i + 1, ' ');
    this.skipTrivia(i + 1, true);
    this.text.replace(next, next + 1, ' ');
    return next + 1;
  }

  /** A bare word; one with dots or dashes that is not a numeral is quoted. */
  private word(i: number): number {
    const end = endOfWord(this.source, i);
    const word = this.source.slice(i, end);
    if (isWordStart(this.source.charCodeAt(i))) this.check.word(word, i);
    else this.check.token(i, word);
    if ((word.includes('.') || word.includes('-')) && !NUMERAL.test(word))
      this.text.replace(i, end, `"${word}"`);
    return end;
  }

  /**
   * Index after whitespace and comments starting at `from`. With `blank`, comments are overwritten by
   * spaces (newlines kept): ts-graphviz does not accept comments everywhere DOT does (`a // x\n -> b`).
   */
  private skipTrivia(from: number, blank = false): number {
    const { source } = this;
    let i = from;
    while (i < this.n) {
      const c = source[i]!;
      let end = i;
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v') {
        i++;
        continue;
      }
      if (c === '#' || (c === '/' && source[i + 1] === '/')) end = endOfLine(source, i);
      else if (c === '/' && source[i + 1] === '*') end = this.endOfBlockComment(i);
      else break;
      if (blank) this.text.replace(i, end, source.slice(i, end).replace(/[^\n\r]/g, ' '));
      i = end;
    }
    return i;
  }

  private endOfBlockComment(start: number): number {
    const close = this.source.indexOf('*/', start + 2);
    if (close === -1)
      this.fail(start, 'This "/*" comment is never closed: expected "*/" before the end of the file.');
    return close + 2;
  }

  /** A quoted string: raw newlines escaped, backslash-newline dropped, `"a" + "b"` folded into one. */
  private lexString(start: number): number {
    const { source } = this;
    let i = start + 1;
    for (;;) {
      // Jumps over the string's plain text at once: most of a pipeline's bytes are in its prompts.
      STRING_SPECIAL.lastIndex = i;
      i = STRING_SPECIAL.test(source) ? STRING_SPECIAL.lastIndex - 1 : this.n;
      if (i >= this.n) {
        this.fail(
          start,
          'This quoted string is never closed: expected a closing " before the end of the file.',
        );
      }
      const c = source[i];
      if (c === '\\') i = this.escape(i);
      else if (c === '\n' || c === '\r') {
        const width = c === '\r' && source[i + 1] === '\n' ? 2 : 1;
        this.text.replace(i, i + width, '\\n');
        i += width;
      } else {
        const joined = this.concatenation(i);
        if (joined === undefined) return i + 1;
        i = joined;
      }
    }
  }

  /** A backslash in a string at `i`: a line continuation is dropped; returns the index after the escape. */
  private escape(i: number): number {
    const next = this.source[i + 1];
    if (next === '\n') {
      this.text.replace(i, i + 2, '');
      return i + 2;
    }
    if (next === '\r' && this.source[i + 2] === '\n') {
      this.text.replace(i, i + 3, '');
      return i + 3;
    }
    return i + 2;
  }

  /** At a closing quote: if `+ "` follows, joins the strings and returns where the next one's text starts. */
  private concatenation(quote: number): number | undefined {
    const plus = this.skipTrivia(quote + 1);
    if (this.source[plus] !== '+') return undefined;
    const open = this.skipTrivia(plus + 1);
    if (this.source[open] !== '"') return undefined;
    this.text.replace(quote, open + 1, '');
    return open + 1;
  }

  private lexHtml(start: number): number {
    let depth = 0;
    for (let i = start; i < this.n; i++) {
      if (this.source[i] === '<') depth++;
      else if (this.source[i] === '>' && --depth === 0) return i + 1;
    }
    return this.fail(start, 'This "<" starts an HTML-like id that is never closed: expected a matching ">".');
  }
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
