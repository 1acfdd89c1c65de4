import type { Diagnostic } from '../../diagnostic.js';
import type { LintRule } from '../lint-rule.js';

const RULE = 'goal_gate_has_retry';

const isSet = (value: string | undefined): boolean => value !== undefined && value !== '';

/** An unmet goal gate with nowhere to retry fails the whole run at the exit (docs/semantics.md). */
export const goalGateHasRetryRule: LintRule = {
  id: RULE,
  severity: 'warning',
  description: 'A goal_gate node should have a retry target, or the graph a default one.',
  check(graph) {
    if (isSet(graph.attrs.retry_target) || isSet(graph.attrs.fallback_retry_target)) return [];
    const findings: Diagnostic[] = [];
    for (const node of graph.nodes) {
      if (node.attrs.goal_gate !== true) continue;
      if (isSet(node.attrs.retry_target) || isSet(node.attrs.fallback_retry_target)) continue;
      findings.push({
        rule: RULE,
        severity: 'warning',
        message: `Goal gate "${node.id}" has no retry_target, so an unmet gate fails the run at the exit.`,
        node_id: node.id,
        fix: `Add retry_target="<node to retry from>" to "${node.id}", or a graph-level retry_target.`,
        loc: node.attrLocs['goal_gate'] ?? node.loc,
      });
    }
    return findings;
  },
};
