import { DotLimitError } from './dot-limit-error.js';
import { DotSyntaxError } from './dot-syntax-error.js';
import type { PositionMap } from './position-map.js';

/**
 * Whole-file checks made while the normaliser walks the tokens, before ts-graphviz sees the text:
 * they give errors a precise location and a message about pipelines rather than a generic
 * "expected X but found Y" (empty file, `graph`/`strict`, a second graph, unbalanced braces, nesting).
 */
export class DotStructureCheck {
  private sawToken = false;
  private readonly openBraces: number[] = [];
  private closedGraph = false;
  /** Offset of the `[` of the attribute list being read; DOT attribute lists do not nest. */
  private openBracket: number | undefined;

  constructor(
    private readonly map: PositionMap,
    private readonly maxNestingDepth: number,
  ) {}

  /** A bare word (identifier or keyword) at a source offset. */
  word(text: string, offset: number): void {
    if (this.afterGraph(offset, text)) return;
    if (this.sawToken) return;
    this.sawToken = true;
    const keyword = text.toLowerCase();
    if (keyword === 'digraph') return;
    if (keyword === 'strict') {
      this.fail(
        offset,
        '"strict digraph" is not supported: a strict graph merges parallel edges between the same two nodes, ' +
          'and pipelines rely on them (one edge per human-gate choice, for example). Remove "strict" and ' +
          'write "digraph name { ... }".',
      );
    }
    if (keyword === 'graph') {
      this.fail(
        offset,
        'This file declares an undirected graph ("graph { ... }"). Pipelines are directed: write ' +
          '"digraph name { ... }" and connect nodes with "->".',
      );
    }
    this.fail(offset, `A pipeline file must start with "digraph name {", but found "${clip(text)}".`);
  }

  /** Any other significant character (string, HTML id, punctuation, number). */
  token(offset: number, text: string): void {
    if (this.afterGraph(offset, text)) return;
    if (this.sawToken) return;
    this.sawToken = true;
    this.fail(offset, `A pipeline file must start with "digraph name {", but found "${clip(text)}".`);
  }

  /** `[` starts an attribute list; a second `[` before its `]` means the first was never closed. */
  bracketOpen(offset: number): void {
    this.token(offset, '[');
    this.unclosedBracket(offset);
    this.openBracket = offset;
  }

  bracketClose(offset: number): void {
    this.token(offset, ']');
    this.openBracket = undefined;
  }

  /** Reports the `[` still open when `offset` (a `[`, `{`, `}` or the end) cannot be inside it. */
  private unclosedBracket(offset: number): void {
    if (this.openBracket === undefined) return;
    const at = this.map.locateSource(offset);
    this.fail(
      this.openBracket,
      `The "[" opened here is never closed: expected "]" to end the attribute list before line ${at.line}, ` +
        `column ${at.column}.`,
    );
  }

  open(offset: number): void {
    this.token(offset, '{');
    this.unclosedBracket(offset);
    this.openBraces.push(offset);
    if (this.openBraces.length > this.maxNestingDepth) {
      throw new DotLimitError(
        'maxNestingDepth',
        this.maxNestingDepth,
        `Nesting of "{ ... }" blocks (depth ${this.openBraces.length})`,
        { location: this.map.locateSource(offset) },
      );
    }
  }

  close(offset: number): void {
    this.token(offset, '}');
    this.unclosedBracket(offset);
    if (this.openBraces.pop() === undefined) {
      this.fail(
        offset,
        'This "}" has no matching "{": expected it only to close the digraph or a subgraph. ' +
          'Look for one "}" too many before this point.',
      );
    }
    if (this.openBraces.length === 0) this.closedGraph = true;
  }

  /** Called at the end of the input. */
  finish(sourceLength: number): void {
    if (!this.sawToken) {
      this.fail(
        sourceLength,
        'The file is empty (or holds only comments): expected a pipeline such as "digraph name { a -> b }".',
      );
    }
    if (this.openBracket !== undefined) {
      this.fail(
        this.openBracket,
        'The "[" opened here is never closed: expected "]" to end the attribute list before the end of the file.',
      );
    }
    const unclosed = this.openBraces.at(-1);
    if (unclosed !== undefined) {
      this.fail(
        unclosed,
        'The "{" opened here is never closed: expected a matching "}" before the end of the file ' +
          '(or a block inside it closes one time too few).',
      );
    }
  }

  private afterGraph(offset: number, text: string): boolean {
    if (!this.closedGraph) return false;
    if (text === '}') {
      this.fail(offset, 'This "}" has no matching "{": the digraph was already closed. Remove one "}".');
    }
    if (/^(di)?graph$|^strict$/i.test(text)) {
      this.fail(
        offset,
        'A second graph starts here, but a pipeline file holds exactly one "digraph { ... }". ' +
          'Put each pipeline in its own file.',
      );
    }
    this.fail(
      offset,
      `Unexpected "${clip(text)}" after the closing "}" of the digraph: expected nothing but comments after it.`,
    );
  }

  private fail(offset: number, message: string): never {
    throw new DotSyntaxError(message, { location: this.map.locateSource(offset) });
  }
}

function clip(text: string): string {
  const printable = JSON.stringify(text.length > 20 ? `${text.slice(0, 20)}…` : text).slice(1, -1);
  return printable;
}
