import { describe, expect, it } from 'vitest';
import {
  ConditionSyntaxError,
  checkConditionSyntax,
  MAX_CONDITION_DEPTH,
  parseCondition,
} from '../../../src/compiler/conditions/index.js';
import { AttractorError } from '../../../src/shared/errors.js';

describe('parseCondition — AST', () => {
  it.each([
    ['', { kind: 'true' }],
    ['outcome=success', { kind: 'compare', key: 'outcome', op: '=', value: 'success' }],
    ['  outcome  !=  retry ', { kind: 'compare', key: 'outcome', op: '!=', value: 'retry' }],
    ['context.ready', { kind: 'truthy', key: 'context.ready' }],
    ['label="Fix it"', { kind: 'compare', key: 'label', op: '=', value: 'Fix it' }],
    ['x="a \\"q\\" b"', { kind: 'compare', key: 'x', op: '=', value: 'a "q" b' }],
    ['x=', { kind: 'compare', key: 'x', op: '=', value: '' }],
    ['model=claude-opus-4-6', { kind: 'compare', key: 'model', op: '=', value: 'claude-opus-4-6' }],
    ['n>=-1.5', { kind: 'compare', key: 'n', op: '>=', value: '-1.5' }],
    ['k contains "x y"', { kind: 'contains', key: 'k', value: 'x y' }],
    ['k in [a, "b c", 3]', { kind: 'in', key: 'k', values: ['a', 'b c', '3'] }],
    ['!a', { kind: 'not', operand: { kind: 'truthy', key: 'a' } }],
    [
      'a && b || c',
      {
        kind: 'or',
        operands: [
          {
            kind: 'and',
            operands: [
              { kind: 'truthy', key: 'a' },
              { kind: 'truthy', key: 'b' },
            ],
          },
          { kind: 'truthy', key: 'c' },
        ],
      },
    ],
    [
      'a && (b || c)',
      {
        kind: 'and',
        operands: [
          { kind: 'truthy', key: 'a' },
          {
            kind: 'or',
            operands: [
              { kind: 'truthy', key: 'b' },
              { kind: 'truthy', key: 'c' },
            ],
          },
        ],
      },
    ],
  ])('%j', (text, ast) => {
    expect(parseCondition(text)).toEqual(ast);
  });

  it('caches by text', () => {
    expect(parseCondition('outcome=success && ready')).toBe(parseCondition('outcome=success && ready'));
  });
});

describe('parseCondition — errors with column and hint', () => {
  it.each([
    ['outcome == success', 9, 'use `=` for equality'],
    ['outcome=success and ready', 17, 'use `&&` for AND'],
    ['a=1 or b=2', 5, 'use `||` for OR'],
    ['not ready', 1, 'use `!` for NOT'],
    ['a=1 AND b=2', 5, 'use `&&` for AND'],
    ['a & b', 3, 'use `&&` for AND'],
    ['a | b', 3, 'use `||` for OR'],
    ['a <> b', 3, 'use `!=` for inequality'],
    ['label=Fix it', 11, 'join clauses with `&&` or `||`, and quote values that contain spaces'],
    ['"outcome"=success', 1, 'keys are written without quotes'],
    ['outcome=success &&', 19, 'remove the trailing operator or add a clause'],
    ['x="open', 3, 'close it with "'],
    ['(a && b', 8, 'to close the `(` at column 1'],
    ['k in [a, b', 11, 'to close the `[` at column 6'],
    ['k in a', 6, 'write `KEY in [a, b]`'],
    ['x = $y', 5, 'quote values that contain characters other than letters, digits and _ - . / :'],
  ])('%j → column %i, hint %j', (text, column, hint) => {
    const problem = checkConditionSyntax(text);
    expect(problem).toMatchObject({ column, hint });
    expect(() => parseCondition(text)).toThrow(ConditionSyntaxError);
  });

  it.each([
    ['&& a', 1],
    ['a &&& b', 5],
    ['a=1 b=2', 5],
    ['()', 2],
    ['a > ', 5],
    ['k contains', 11],
    ['k in [a b]', 9],
    ['1abc=2', 1],
    ['a=1)', 4],
    ['a !== b', 5],
  ])('%j is an error at column %i', (text, column) => {
    expect(checkConditionSyntax(text)?.column).toBe(column);
  });

  it('returns undefined for valid conditions', () => {
    expect(checkConditionSyntax('outcome=success && context.tests_passed=true')).toBeUndefined();
    expect(checkConditionSyntax('')).toBeUndefined();
  });

  it('is an AttractorError with a stable code and the hint in the message', () => {
    try {
      parseCondition('a == b');
      expect.unreachable();
    } catch (error) {
      expect(AttractorError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'CONDITION_SYNTAX', column: 3, hint: 'use `=` for equality' });
      expect((error as Error).message).toBe('`==` is not an operator (use `=` for equality)');
      expect(checkConditionSyntax('a == b')?.message).toBe('`==` is not an operator');
    }
  });

  it('caps nesting depth with a clear error', () => {
    const deep = `${'('.repeat(MAX_CONDITION_DEPTH + 1)}a${')'.repeat(MAX_CONDITION_DEPTH + 1)}`;
    expect(checkConditionSyntax(deep)?.message).toMatch(/nests deeper than 64 levels/);
    const ok = `${'('.repeat(MAX_CONDITION_DEPTH)}a${')'.repeat(MAX_CONDITION_DEPTH)}`;
    expect(checkConditionSyntax(ok)).toBeUndefined();
    expect(checkConditionSyntax('!'.repeat(10_000))?.message).toMatch(/nests deeper/);
  });

  it('refuses very long conditions', () => {
    expect(checkConditionSyntax('a'.repeat(20_000))?.message).toMatch(/longer than/);
  });
});

describe('parseCondition — cache safety', () => {
  it('returns frozen ASTs so a caller cannot corrupt the cache', () => {
    const node = parseCondition('outcome=success && ready');
    expect(Object.isFrozen(node)).toBe(true);
    expect(() => {
      (node as { kind: string }).kind = 'true';
    }).toThrow(TypeError);
  });
});
