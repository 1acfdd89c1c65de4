export {
  findExitNodes,
  findStartNodes,
  type GraphIndex,
  indexGraph,
  isExitNode,
  isStartNode,
} from './graph-index.js';
export type { LintRule } from './lint-rule.js';
export { PipelineValidationError } from './pipeline-validation-error.js';
export {
  BUILTIN_LINT_RULES,
  BUILTIN_RULE_IDS,
  builtinLintRules,
  createTypeKnownRule,
} from './rules/index.js';
export { stronglyConnectedComponents } from './strongly-connected-components.js';
export { hasErrors, type ValidateOptions, validate, validateOrRaise } from './validate.js';
