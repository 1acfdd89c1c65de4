import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ConditionNode,
  ConditionSyntaxError,
  evaluateCondition,
  parseCondition,
} from '../../../src/compiler/conditions/index.js';

/** Any outcome of parsing must be an AST or a ConditionSyntaxError, never another exception. */
function parseOrSyntaxError(text: string): ConditionNode | ConditionSyntaxError {
  try {
    return parseCondition(text);
  } catch (error) {
    if (error instanceof ConditionSyntaxError) {
      expect(error.column).toBeGreaterThanOrEqual(1);
      expect(error.code).toBe('CONDITION_SYNTAX');
      return error;
    }
    throw error;
  }
}

const fragments = fc.constantFrom(
  'outcome',
  'context.x',
  'x',
  '=',
  '!=',
  '==',
  '<',
  '>=',
  '&&',
  '||',
  '&',
  '!',
  '(',
  ')',
  '[',
  ']',
  ',',
  ' ',
  '"a b"',
  "'q'",
  '"',
  'contains',
  'in',
  'and',
  'not',
  'success',
  '-1.5',
  '\\',
  '\n',
);

const key = fc.constantFrom('outcome', 'preferred_label', 'context.ready', 'ready', 'count', 'tool.output');
const value = fc.oneof(
  fc.constantFrom('success', 'fail', '7', '-1.5', 'a-b/c:d'),
  fc.string({ maxLength: 6 }),
);

const ast: fc.Arbitrary<ConditionNode> = fc.letrec<{ node: ConditionNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    key.map((k): ConditionNode => ({ kind: 'truthy', key: k })),
    fc
      .tuple(key, fc.constantFrom('=', '!=', '<', '>', '<=', '>=' as const), value)
      .map(([k, op, v]): ConditionNode => ({ kind: 'compare', key: k, op, value: v })),
    fc.tuple(key, value).map(([k, v]): ConditionNode => ({ kind: 'contains', key: k, value: v })),
    fc
      .tuple(key, fc.array(value, { maxLength: 3 }))
      .map(([k, vs]): ConditionNode => ({ kind: 'in', key: k, values: vs })),
    tie('node').map((operand): ConditionNode => ({ kind: 'not', operand })),
    fc
      .array(tie('node'), { minLength: 2, maxLength: 3 })
      .map((operands): ConditionNode => ({ kind: 'and', operands })),
    fc
      .array(tie('node'), { minLength: 2, maxLength: 3 })
      .map((operands): ConditionNode => ({ kind: 'or', operands })),
  ),
})).node;

const quote = (v: string): string => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** Prints an AST fully parenthesised, values always quoted. */
function print(node: ConditionNode): string {
  switch (node.kind) {
    case 'true':
      return '';
    case 'truthy':
      return node.key;
    case 'compare':
      return `${node.key} ${node.op} ${quote(node.value)}`;
    case 'contains':
      return `${node.key} contains ${quote(node.value)}`;
    case 'in':
      return `${node.key} in [${node.values.map(quote).join(', ')}]`;
    case 'not':
      return `!(${print(node.operand)})`;
    case 'and':
      return node.operands.map((o) => `(${print(o)})`).join(' && ');
    case 'or':
      return node.operands.map((o) => `(${print(o)})`).join(' || ');
  }
}

describe('condition parser fuzz', () => {
  it('any string gives an AST or a ConditionSyntaxError', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        parseOrSyntaxError(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('any sequence of condition-like fragments gives an AST or a ConditionSyntaxError', () => {
    fc.assert(
      fc.property(fc.array(fragments, { maxLength: 30 }), (parts) => {
        const result = parseOrSyntaxError(parts.join(''));
        if (!(result instanceof ConditionSyntaxError)) {
          // Whatever parses also evaluates without throwing.
          evaluateCondition(result, { outcome: 'success', context: { x: 'y', 'context.x': 1 } });
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('printing an AST and parsing it back gives the same AST and the same verdict', () => {
    const context = fc.record({
      ready: fc.constantFrom('', 'yes', true, false, 0),
      count: fc.constantFrom(7, '7', 'x', -1.5),
      'tool.output': fc.constantFrom('all success', 'fail'),
    });
    fc.assert(
      fc.property(ast, fc.constantFrom('success', 'fail'), context, (node, outcome, ctx) => {
        const reparsed = parseCondition(print(node));
        expect(reparsed).toEqual(node);
        const scope = { outcome, context: ctx };
        expect(evaluateCondition(reparsed, scope)).toBe(evaluateCondition(node, scope));
      }),
      { numRuns: 500 },
    );
  });

  it('deep nesting is refused with a clear error rather than a stack overflow', () => {
    fc.assert(
      // Capped below MAX_CONDITION_LENGTH even for the two-character opener, so the depth limit is what trips.
      fc.property(fc.integer({ min: 65, max: 4999 }), fc.constantFrom('(', '!', '!('), (depth, opener) => {
        const result = parseOrSyntaxError(`${opener.repeat(depth)}a`);
        expect(result).toBeInstanceOf(ConditionSyntaxError);
        expect((result as ConditionSyntaxError).message).toMatch(/nests deeper than 64 levels/);
      }),
      { numRuns: 50 },
    );
  });
});
