import { AttractorError } from '../../shared/errors.js';
import type { Diagnostic, Severity } from '../diagnostic.js';
import type { PipelineGraph } from '../ir.js';
import { indexGraph } from './graph-index.js';
import type { LintRule } from './lint-rule.js';
import { PipelineValidationError } from './pipeline-validation-error.js';
import { BUILTIN_RULE_IDS, builtinLintRules } from './rules/index.js';

export interface ValidateOptions {
  /** The caller's own rules, run after the built-ins; ids must be unique and not a built-in's. */
  rules?: LintRule[];
  /** Handler types registered by the embedding application, so `type_known` accepts them. */
  customHandlerTypes?: string[];
  /**
   * How `type_known` reports a type neither built in nor in `customHandlerTypes`: an error (default:
   * it would run as a coding agent), or a warning for a caller whose own registry handles it.
   */
  unknownTypes?: 'error' | 'warning';
}

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Source order (findings without a location last), then errors before warnings; stable otherwise. */
function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  if (a.loc && b.loc) {
    const byPlace = a.loc.line - b.loc.line || a.loc.column - b.loc.column;
    if (byPlace !== 0) return byPlace;
  } else if (a.loc || b.loc) {
    return a.loc ? -1 : 1;
  }
  return SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity];
}

/** A custom rule may not shadow a built-in or another custom rule: its findings would be ambiguous. */
function checkedCustomRules(rules: readonly LintRule[] = []): readonly LintRule[] {
  const seen = new Set<string>();
  for (const rule of rules) {
    if (BUILTIN_RULE_IDS.has(rule.id) || seen.has(rule.id)) {
      const what = BUILTIN_RULE_IDS.has(rule.id) ? 'is a built-in rule' : 'is given twice';
      throw new AttractorError('LINT_RULE_CONFLICT', `Lint rule id "${rule.id}" ${what}; pick another id.`);
    }
    seen.add(rule.id);
  }
  return rules;
}

function runRule(rule: LintRule, graph: PipelineGraph, index: ReturnType<typeof indexGraph>): Diagnostic[] {
  try {
    return rule.check(graph, index);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new AttractorError('LINT_RULE_FAILED', `Lint rule "${rule.id}" crashed: ${reason}`, { cause });
  }
}

/**
 * Runs every static check on a pipeline: the built-in rules, then `options.rules`.
 * Returns the findings sorted by source location; it never throws for a bad pipeline.
 *
 * @example
 * const diagnostics = validate(graph, { customHandlerTypes: ['deploy'] });
 * if (hasErrors(diagnostics)) process.exitCode = 1;
 */
export function validate(graph: PipelineGraph, options: ValidateOptions = {}): Diagnostic[] {
  const index = indexGraph(graph);
  const builtin = builtinLintRules(options.customHandlerTypes ?? [], options.unknownTypes ?? 'error');
  const rules = [...builtin, ...checkedCustomRules(options.rules)];
  const findings = rules.flatMap((rule) => runRule(rule, graph, index));
  return findings.sort(compareDiagnostics);
}

/** True when any finding is an ERROR. */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/**
 * Like `validate`, but throws one PipelineValidationError (code `VALIDATION_FAILED`) when any finding is an
 * ERROR. Returns the findings (warnings only) otherwise.
 *
 * @example
 * const warnings = validateOrRaise(graph);
 */
export function validateOrRaise(graph: PipelineGraph, options: ValidateOptions = {}): Diagnostic[] {
  const diagnostics = validate(graph, options);
  if (hasErrors(diagnostics)) throw new PipelineValidationError(diagnostics);
  return diagnostics;
}
