export { conditionCanBe } from './condition-can-be.js';
export type { ComparisonOperator, ConditionNode } from './condition-node.js';
export { conditionKeys, conditionTestsOutcome } from './condition-references.js';
export { ConditionSyntaxError } from './condition-syntax-error.js';
export { conditionsCover } from './conditions-cover.js';
export {
  type ConditionScope,
  evaluateCondition,
  resolveConditionKey,
  stringifyConditionValue,
} from './evaluate-condition.js';
export {
  checkConditionSyntax,
  MAX_CONDITION_DEPTH,
  MAX_CONDITION_LENGTH,
  parseCondition,
} from './parse-condition.js';
export { type ConditionToken, tokenizeCondition } from './tokenize-condition.js';
