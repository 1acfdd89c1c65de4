import { convertStyleProperty } from './style-properties.js';
import {
  SELECTOR_SPECIFICITY,
  type StyleDeclaration,
  type StyleRule,
  type StyleSelector,
  type Stylesheet,
} from './stylesheet.js';
import { StylesheetSyntaxError } from './stylesheet-syntax-error.js';

/** Longer stylesheets are refused: a model stylesheet is a handful of rules. */
export const MAX_STYLESHEET_LENGTH = 1_000_000;

const IDENT_START = /[A-Za-z_]/;
const IDENT_CHAR = /[A-Za-z0-9_]/;
const CLASS_CHAR = /[A-Za-z0-9_-]/;
const ID_CHAR = /[A-Za-z0-9_.-]/;
const PROPERTY_CHAR = /[A-Za-z0-9_.]/;

class StylesheetParser {
  private pos = 0;
  private line = 1;
  private column = 1;
  private order = 0;

  constructor(private readonly text: string) {}

  parse(): Stylesheet {
    const rules: StyleRule[] = [];
    this.skipTrivia();
    while (!this.atEnd()) {
      rules.push(...this.parseRules());
      this.skipTrivia();
    }
    return { rules };
  }

  private atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  private peek(offset = 0): string {
    return this.text[this.pos + offset] ?? '';
  }

  private advance(): string {
    const ch = this.text[this.pos++] ?? '';
    if (ch === '\n') {
      this.line++;
      this.column = 1;
    } else {
      this.column++;
    }
    return ch;
  }

  private here(): { line: number; column: number } {
    return { line: this.line, column: this.column };
  }

  private fail(message: string, at = this.here()): never {
    throw new StylesheetSyntaxError(message, at);
  }

  private found(): string {
    return this.atEnd() ? 'the end of the stylesheet' : `"${this.peek()}"`;
  }

  /** Skips whitespace and comments; returns whether a newline was crossed. */
  private skipTrivia(newlines = true): boolean {
    let crossed = false;
    for (;;) {
      const ch = this.peek();
      if (ch === '/' && this.peek(1) === '*') {
        const start = this.here();
        this.advance();
        this.advance();
        while (!(this.peek() === '*' && this.peek(1) === '/')) {
          if (this.atEnd()) this.fail('unterminated comment: add "*/"', start);
          if (this.advance() === '\n') crossed = true;
        }
        this.advance();
        this.advance();
      } else if (ch === '\n' && newlines) {
        crossed = true;
        this.advance();
      } else if (ch !== '' && ch !== '\n' && /\s/.test(ch)) {
        this.advance();
      } else {
        return crossed;
      }
    }
  }

  private read(pattern: RegExp): string {
    let out = '';
    while (!this.atEnd() && pattern.test(this.peek())) out += this.advance();
    return out;
  }

  private parseRules(): StyleRule[] {
    const selectors: Array<{ selector: StyleSelector; line: number; column: number }> = [];
    for (;;) {
      const at = this.here();
      selectors.push({ selector: this.parseSelector(), ...at });
      this.skipTrivia();
      if (this.peek() !== ',') break;
      this.advance();
      this.skipTrivia();
    }
    if (this.peek() !== '{') this.fail(`expected "{" after the selector, found ${this.found()}`);
    const open = this.here();
    this.advance();
    const declarations = this.parseDeclarations(open);
    return selectors.map(({ selector, line, column }) => ({
      selector,
      specificity: SELECTOR_SPECIFICITY[selector.kind],
      order: this.order++,
      declarations,
      line,
      column,
    }));
  }

  private parseSelector(): StyleSelector {
    const ch = this.peek();
    if (ch === '*') {
      this.advance();
      return { kind: 'universal' };
    }
    if (ch === '#' || ch === '.') {
      this.advance();
      const name = this.read(ch === '#' ? ID_CHAR : CLASS_CHAR);
      if (!name)
        this.fail(`expected a ${ch === '#' ? 'node id' : 'class name'} after "${ch}", found ${this.found()}`);
      return ch === '#' ? { kind: 'id', id: name } : { kind: 'class', name };
    }
    if (IDENT_START.test(ch)) return { kind: 'shape', shape: this.read(IDENT_CHAR) };
    this.fail(`expected a selector ("*", a shape such as box, ".class" or "#id"), found ${this.found()}`);
  }

  private parseDeclarations(open: { line: number; column: number }): StyleDeclaration[] {
    const declarations: StyleDeclaration[] = [];
    for (;;) {
      this.skipTrivia();
      if (this.atEnd()) this.fail(`missing "}" to close the "{" at line ${open.line}, column ${open.column}`);
      if (this.peek() === '}') {
        this.advance();
        return declarations;
      }
      if (this.peek() === ';') {
        this.advance();
        continue;
      }
      declarations.push(this.parseDeclaration());
      const crossed = this.skipTrivia(true);
      const next = this.peek();
      if (next === ';') this.advance();
      // A newline also separates declarations: forgetting a `;` between lines is common and unambiguous.
      else if (next !== '}' && !crossed && !this.atEnd())
        this.fail(`expected ";" or "}", found ${this.found()}`);
    }
  }

  private parseDeclaration(): StyleDeclaration {
    const at = this.here();
    if (!IDENT_START.test(this.peek())) this.fail(`expected a property name, found ${this.found()}`);
    const name = this.read(PROPERTY_CHAR);
    this.skipTrivia(false);
    if (this.peek() === '=') this.fail(`expected ":" after "${name}", found "="; write "${name}: value"`);
    if (this.peek() !== ':') this.fail(`expected ":" after "${name}", found ${this.found()}`);
    this.advance();
    this.skipTrivia(false);
    const valueAt = this.here();
    const raw = this.peek() === '"' || this.peek() === "'" ? this.readQuoted() : this.readBare(name);
    const result = convertStyleProperty(name, raw);
    if ('error' in result) this.fail(result.error, result.on === 'property' ? at : valueAt);
    return { property: result.property, value: result.value, ...at };
  }

  private readQuoted(): string {
    const start = this.here();
    const quote = this.advance();
    let out = '';
    for (;;) {
      if (this.atEnd()) this.fail(`unterminated quoted value: add ${quote}`, start);
      const ch = this.advance();
      if (ch === quote) return out;
      if (ch === '\\' && !this.atEnd()) {
        const escaped = this.advance();
        out += escaped === 'n' ? '\n' : escaped === 't' ? '\t' : escaped;
      } else {
        out += ch;
      }
    }
  }

  private readBare(name: string): string {
    const start = this.here();
    let out = '';
    while (!this.atEnd()) {
      const ch = this.peek();
      if (ch === ';' || ch === '}' || ch === '{' || ch === '\n' || (ch === '/' && this.peek(1) === '*'))
        break;
      out += this.advance();
    }
    const value = out.trim();
    if (value === '') this.fail(`missing value for "${name}"`, start);
    if (/\s/.test(value)) this.fail(`value "${value}" contains spaces: put it in quotes`, start);
    return value;
  }
}

/**
 * Parses a `model_stylesheet`: rules `selector { property: value; ... }`
 * with selectors `*`, a shape name (`box`), `.class` and `#id`, several selectors separated by commas,
 * `/* *\/` comments, quoted or bare values, `;` optional after the last declaration (and at line ends).
 *
 * @throws StylesheetSyntaxError with the line and column within the stylesheet.
 * @example
 * parseStylesheet('* { llm_model: gpt-4o } #review { reasoning_effort: high }').rules.length; // 2
 */
export function parseStylesheet(text: string): Stylesheet {
  if (text.length > MAX_STYLESHEET_LENGTH) {
    throw new StylesheetSyntaxError(`stylesheet is longer than ${MAX_STYLESHEET_LENGTH} characters`, {
      line: 1,
      column: 1,
    });
  }
  return new StylesheetParser(text).parse();
}

/** The first syntax problem of a stylesheet, or undefined. Used by the `stylesheet_syntax` lint rule. */
export function checkStylesheetSyntax(
  text: string,
): { message: string; line: number; column: number } | undefined {
  try {
    parseStylesheet(text);
    return undefined;
  } catch (error) {
    if (!(error instanceof StylesheetSyntaxError)) throw error;
    return { message: error.detail, line: error.line, column: error.column };
  }
}
