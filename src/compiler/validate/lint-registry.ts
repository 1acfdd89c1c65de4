/**
 * Process-wide custom lint rules: they run on every `validate` call after
 * the built-ins, so a team can enforce its own conventions without wrapping the CLI.
 */
import { AttractorError } from '../../shared/errors.js';
import type { LintRule } from './lint-rule.js';
import { BUILTIN_RULE_IDS } from './rules/index.js';

const registry = new Map<string, LintRule>();

/**
 * Registers a rule for every later `validate` call; registering an id again replaces the earlier rule.
 * Returns a function that unregisters it. Built-in rule ids are reserved.
 *
 * @example
 * const unregister = registerLintRule(myRule);
 * try { validate(graph) } finally { unregister() }
 */
export function registerLintRule(rule: LintRule): () => void {
  if (BUILTIN_RULE_IDS.has(rule.id)) {
    throw new AttractorError(
      'LINT_RULE_CONFLICT',
      `Lint rule id "${rule.id}" is a built-in rule; pick another id.`,
    );
  }
  registry.set(rule.id, rule);
  return () => {
    if (registry.get(rule.id) === rule) registry.delete(rule.id);
  };
}

/** Removes a registered rule by id; returns whether one was registered. */
export function unregisterLintRule(id: string): boolean {
  return registry.delete(id);
}

/** The registered custom rules, in registration order. */
export function registeredLintRules(): LintRule[] {
  return [...registry.values()];
}
