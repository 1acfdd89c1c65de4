/**
 * The AST of a condition expression. Plain data so it can be cached, compared in tests and printed.
 * `key` is the key exactly as written (`context.tests_passed`, `outcome`); resolution happens at evaluation.
 */
export type ComparisonOperator = '=' | '!=' | '<' | '>' | '<=' | '>=';

export type ConditionNode =
  /** The empty condition: always true. */
  | { kind: 'true' }
  | { kind: 'and'; operands: ConditionNode[] }
  | { kind: 'or'; operands: ConditionNode[] }
  | { kind: 'not'; operand: ConditionNode }
  /** Bare key: true when the resolved value is non-empty. */
  | { kind: 'truthy'; key: string }
  | { kind: 'compare'; key: string; op: ComparisonOperator; value: string }
  | { kind: 'contains'; key: string; value: string }
  | { kind: 'in'; key: string; values: string[] };
