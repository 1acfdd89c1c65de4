import type { ConditionNode } from './condition-node.js';

/** Keys a condition reads, in order of appearance (`context.x` stays as written). */
export function conditionKeys(node: ConditionNode): string[] {
  switch (node.kind) {
    case 'true':
      return [];
    case 'and':
    case 'or':
      return node.operands.flatMap(conditionKeys);
    case 'not':
      return conditionKeys(node.operand);
    default:
      return [node.key];
  }
}

/** True when the condition reads the `outcome` key anywhere (so it was written to react to a status). */
export function conditionTestsOutcome(node: ConditionNode): boolean {
  return conditionKeys(node).includes('outcome');
}
