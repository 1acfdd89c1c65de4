import type { ComparisonOperator, ConditionNode } from './condition-node.js';
import { ConditionSyntaxError } from './condition-syntax-error.js';
import { type ConditionToken, tokenizeCondition } from './tokenize-condition.js';

/** Deeper nesting of `(` and `!` than this is refused: it is never intended and would blow the stack. */
export const MAX_CONDITION_DEPTH = 64;
/** Longer conditions are refused before tokenizing. */
export const MAX_CONDITION_LENGTH = 10_000;

const KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_.\-:/]*$/;
const COMPARISON_OPERATORS = new Set<string>(['=', '!=', '<', '>', '<=', '>=']);
/** Words from other languages that are never keys here; each gets a hint instead. */
const FOREIGN_WORDS: ReadonlyMap<string, string> = new Map([
  ['and', 'use `&&` for AND'],
  ['or', 'use `||` for OR'],
  ['not', 'use `!` for NOT'],
  ['AND', 'use `&&` for AND'],
  ['OR', 'use `||` for OR'],
  ['NOT', 'use `!` for NOT'],
]);

class ConditionParser {
  private pos = 0;
  private depth = 0;

  constructor(
    private readonly text: string,
    private readonly tokens: ConditionToken[],
  ) {}

  parse(): ConditionNode {
    if (this.peek().type === 'eof') return { kind: 'true' };
    const node = this.parseOr();
    const token = this.peek();
    if (token.type !== 'eof') this.unexpected(token);
    return node;
  }

  private peek(): ConditionToken {
    return this.tokens[this.pos] as ConditionToken;
  }

  private advance(): ConditionToken {
    const token = this.peek();
    if (token.type !== 'eof') this.pos++;
    return token;
  }

  private isPunct(text: string): boolean {
    const token = this.peek();
    return token.type === 'punct' && token.text === text;
  }

  private fail(message: string, column: number, hint?: string): never {
    throw new ConditionSyntaxError(message, { condition: this.text, column, ...(hint ? { hint } : {}) });
  }

  private describe(token: ConditionToken): string {
    if (token.type === 'eof') return 'the end of the condition';
    if (token.type === 'string') return `"${token.text}"`;
    return `\`${token.text}\``;
  }

  private unexpected(token: ConditionToken): never {
    const foreign = token.type === 'word' ? FOREIGN_WORDS.get(token.text) : undefined;
    if (foreign) this.fail(`\`${token.text}\` is not an operator`, token.column, foreign);
    if (token.type === 'word' || token.type === 'string') {
      this.fail(
        `unexpected ${this.describe(token)}`,
        token.column,
        'join clauses with `&&` or `||`, and quote values that contain spaces',
      );
    }
    this.fail(`unexpected ${this.describe(token)}`, token.column);
  }

  private enter(column: number): void {
    this.depth++;
    if (this.depth > MAX_CONDITION_DEPTH) {
      this.fail(
        `condition nests deeper than ${MAX_CONDITION_DEPTH} levels`,
        column,
        'simplify the expression',
      );
    }
  }

  private parseOr(): ConditionNode {
    const operands = [this.parseAnd()];
    while (this.isPunct('||')) {
      this.advance();
      operands.push(this.parseAnd());
    }
    return operands.length === 1 ? (operands[0] as ConditionNode) : { kind: 'or', operands };
  }

  private parseAnd(): ConditionNode {
    const operands = [this.parseUnary()];
    while (this.isPunct('&&')) {
      this.advance();
      operands.push(this.parseUnary());
    }
    return operands.length === 1 ? (operands[0] as ConditionNode) : { kind: 'and', operands };
  }

  private parseUnary(): ConditionNode {
    const token = this.peek();
    if (token.type === 'punct' && token.text === '!') {
      this.advance();
      this.enter(token.column);
      const operand = this.parseUnary();
      this.depth--;
      return { kind: 'not', operand };
    }
    return this.parsePrimary();
  }

  private parsePrimary(): ConditionNode {
    const token = this.advance();
    if (token.type === 'punct' && token.text === '(') {
      this.enter(token.column);
      const inner = this.parseOr();
      const close = this.peek();
      if (!(close.type === 'punct' && close.text === ')')) {
        if (close.type === 'eof')
          this.fail('missing `)`', close.column, `to close the \`(\` at column ${token.column}`);
        this.unexpected(close);
      }
      this.advance();
      this.depth--;
      return inner;
    }
    if (token.type !== 'word') {
      this.fail(`expected a key, found ${this.describe(token)}`, token.column, this.keyHint(token));
    }
    const foreign = FOREIGN_WORDS.get(token.text);
    if (foreign) this.fail(`\`${token.text}\` is not an operator`, token.column, foreign);
    if (!KEY_PATTERN.test(token.text)) {
      this.fail(`\`${token.text}\` is not a valid key`, token.column, 'keys start with a letter or `_`');
    }
    return this.parseTest(token.text);
  }

  private keyHint(token: ConditionToken): string | undefined {
    if (token.type === 'string') return 'keys are written without quotes';
    if (token.type === 'eof' && this.pos > 0) return 'remove the trailing operator or add a clause';
    return undefined;
  }

  private parseTest(key: string): ConditionNode {
    const token = this.peek();
    if (token.type === 'punct' && COMPARISON_OPERATORS.has(token.text)) {
      this.advance();
      const op = token.text as ComparisonOperator;
      if ((op === '=' || op === '!=') && this.atClauseEnd()) return { kind: 'compare', key, op, value: '' };
      return { kind: 'compare', key, op, value: this.parseValue(`\`${op}\``) };
    }
    if (token.type === 'word' && token.text === 'contains') {
      this.advance();
      return { kind: 'contains', key, value: this.parseValue('`contains`') };
    }
    if (token.type === 'word' && token.text === 'in') {
      this.advance();
      return { kind: 'in', key, values: this.parseList() };
    }
    return { kind: 'truthy', key };
  }

  /** `key=` with nothing after it compares with "" (the core language splits on the first `=`). */
  private atClauseEnd(): boolean {
    const token = this.peek();
    return token.type === 'eof' || (token.type === 'punct' && ['&&', '||', ')'].includes(token.text));
  }

  private parseValue(after: string): string {
    const token = this.peek();
    if (token.type === 'word' || token.type === 'string') {
      this.advance();
      return token.text;
    }
    this.fail(`expected a value after ${after}, found ${this.describe(token)}`, token.column);
  }

  private parseList(): string[] {
    const open = this.peek();
    if (!(open.type === 'punct' && open.text === '[')) {
      this.fail(
        `expected \`[\` after \`in\`, found ${this.describe(open)}`,
        open.column,
        'write `KEY in [a, b]`',
      );
    }
    this.advance();
    const values: string[] = [];
    if (this.isPunct(']')) {
      this.advance();
      return values;
    }
    for (;;) {
      values.push(this.parseValue(values.length === 0 ? '`[`' : '`,`'));
      const token = this.advance();
      if (token.type === 'punct' && token.text === ']') return values;
      if (!(token.type === 'punct' && token.text === ',')) {
        if (token.type === 'eof')
          this.fail('missing `]`', token.column, `to close the \`[\` at column ${open.column}`);
        this.fail(`expected \`,\` or \`]\`, found ${this.describe(token)}`, token.column);
      }
    }
  }
}

const cache = new Map<string, ConditionNode>();

/** Cached ASTs are shared between callers, so none of them may change one. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
const CACHE_LIMIT = 2_000;

/**
 * Parses a condition expression (docs/semantics.md S5, with its extensions) into an AST.
 * Results are cached by text because routing evaluates the same few conditions on every step.
 *
 * @throws ConditionSyntaxError when the text is not a valid condition.
 * @example
 * parseCondition('outcome=success && context.tests_passed');
 * // { kind: 'and', operands: [{ kind: 'compare', key: 'outcome', op: '=', value: 'success' }, { kind: 'truthy', key: 'context.tests_passed' }] }
 */
export function parseCondition(text: string): ConditionNode {
  const cached = cache.get(text);
  if (cached) return cached;
  if (text.length > MAX_CONDITION_LENGTH) {
    throw new ConditionSyntaxError(`condition is longer than ${MAX_CONDITION_LENGTH} characters`, {
      condition: text.slice(0, 200),
      column: MAX_CONDITION_LENGTH + 1,
    });
  }
  const node = deepFreeze(new ConditionParser(text, tokenizeCondition(text)).parse());
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(text, node);
  return node;
}

/**
 * Returns the first syntax problem of a condition, or undefined when it parses. Used by the
 * `condition_syntax` lint rule.
 */
export function checkConditionSyntax(
  text: string,
): { message: string; column: number; hint?: string } | undefined {
  try {
    parseCondition(text);
    return undefined;
  } catch (error) {
    if (!(error instanceof ConditionSyntaxError)) throw error;
    return { message: error.detail, column: error.column, ...(error.hint ? { hint: error.hint } : {}) };
  }
}
