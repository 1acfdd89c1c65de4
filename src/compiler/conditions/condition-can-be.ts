import type { StageStatus } from '../outcome.js';
import type { ConditionNode } from './condition-node.js';
import { evaluateCondition } from './evaluate-condition.js';

/**
 * Whether a condition can come out `want` when the outcome is `status`, whatever the other keys (the
 * context, `preferred_label`) hold: `outcome=success && context.x` can be true or false after a
 * success, never true after a FAIL. What lint rules ask to tell "can this edge be taken" from "must it".
 *
 * @example
 * conditionCanBe(parseCondition('outcome=success'), false, 'success'); // false: it always holds
 */
export function conditionCanBe(node: ConditionNode, want: boolean, status: StageStatus): boolean {
  switch (node.kind) {
    case 'true':
      return want;
    case 'and':
      return want
        ? node.operands.every((o) => conditionCanBe(o, true, status))
        : node.operands.some((o) => conditionCanBe(o, false, status));
    case 'or':
      return want
        ? node.operands.some((o) => conditionCanBe(o, true, status))
        : node.operands.every((o) => conditionCanBe(o, false, status));
    case 'not':
      return conditionCanBe(node.operand, !want, status);
    default:
      return node.key === 'outcome'
        ? evaluateCondition(node, { outcome: status, context: {} }) === want
        : true;
  }
}
