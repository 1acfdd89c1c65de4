import type { LintRule } from '../lint-rule.js';
import { conditionSyntaxRule } from './condition_syntax.js';
import { cyclesRule } from './cycles.js';
import { deadEndRule } from './dead_end.js';
import { edgeTargetExistsRule } from './edge_target_exists.js';
import { exitNoOutgoingRule } from './exit_no_outgoing.js';
import { failLoopHasBoundRule } from './fail_loop_has_bound.js';
import { fidelityValidRule } from './fidelity_valid.js';
import { gateKeysDistinctRule } from './gate_keys_distinct.js';
import { goalGateHasRetryRule } from './goal_gate_has_retry.js';
import { humanFreeformChoiceRule } from './human_freeform_choice.js';
import { parallelFailureHasRouteRule } from './parallel_failure_has_route.js';
import { parallelIsolationRule } from './parallel_isolation.js';
import { promptOnLlmNodesRule } from './prompt_on_llm_nodes.js';
import { reachabilityRule } from './reachability.js';
import { requiredAttributesRule } from './required_attributes.js';
import { retryTargetExistsRule } from './retry_target_exists.js';
import { startNoIncomingRule } from './start_no_incoming.js';
import { startNodeRule } from './start_node.js';
import { stylesheetSyntaxRule } from './stylesheet_syntax.js';
import { terminalNodeRule } from './terminal_node.js';
import { createTypeKnownRule, typeKnownRule } from './type_known.js';
import { varsDeclaredRule } from './vars_declared.js';

export {
  conditionSyntaxRule,
  createTypeKnownRule,
  cyclesRule,
  deadEndRule,
  edgeTargetExistsRule,
  exitNoOutgoingRule,
  failLoopHasBoundRule,
  fidelityValidRule,
  gateKeysDistinctRule,
  goalGateHasRetryRule,
  humanFreeformChoiceRule,
  parallelFailureHasRouteRule,
  parallelIsolationRule,
  promptOnLlmNodesRule,
  reachabilityRule,
  requiredAttributesRule,
  retryTargetExistsRule,
  startNodeRule,
  startNoIncomingRule,
  stylesheetSyntaxRule,
  terminalNodeRule,
  typeKnownRule,
  varsDeclaredRule,
};

function withTypeKnown(typeKnown: LintRule): LintRule[] {
  return [
    startNodeRule,
    terminalNodeRule,
    reachabilityRule,
    edgeTargetExistsRule,
    startNoIncomingRule,
    exitNoOutgoingRule,
    conditionSyntaxRule,
    stylesheetSyntaxRule,
    typeKnown,
    requiredAttributesRule,
    fidelityValidRule,
    retryTargetExistsRule,
    goalGateHasRetryRule,
    promptOnLlmNodesRule,
    cyclesRule,
    failLoopHasBoundRule,
    deadEndRule,
    parallelFailureHasRouteRule,
    parallelIsolationRule,
    varsDeclaredRule,
    humanFreeformChoiceRule,
    gateKeysDistinctRule,
  ];
}

/** The built-in rules in their documented order, with `type_known` knowing only the built-in handlers. */
export const BUILTIN_LINT_RULES: readonly LintRule[] = Object.freeze(withTypeKnown(typeKnownRule));

/** Ids reserved by the built-in rules. */
export const BUILTIN_RULE_IDS: ReadonlySet<string> = new Set(BUILTIN_LINT_RULES.map((rule) => rule.id));

/**
 * The built-in rules, with `type_known` also accepting the given custom handler types, and reporting
 * other types as `unknownTypes` says (an error unless the caller runs a registry of its own).
 */
export function builtinLintRules(
  customHandlerTypes: readonly string[] = [],
  unknownTypes: 'error' | 'warning' = 'error',
): LintRule[] {
  return customHandlerTypes.length === 0 && unknownTypes === 'error'
    ? [...BUILTIN_LINT_RULES]
    : withTypeKnown(createTypeKnownRule(customHandlerTypes, unknownTypes));
}
