import type { Diagnostic } from '../../diagnostic.js';
import type { LintRule } from '../lint-rule.js';

const RULE = 'reachability';

/**
 * Every node reachable from the start node. Orphans are an ERROR (docs/decisions.md), although the spec's parity
 * matrix calls them a warning: an unreachable node is almost always a typo in an edge.
 * Retry jumps count as paths, because the engine takes them: a reached node's `retry_target` and
 * `fallback_retry_target`, and the graph's two targets once a reached node is a goal gate (docs/decisions.md, §3).
 * Without a start node there is nothing to measure from; `start_node` reports that.
 */
export const reachabilityRule: LintRule = {
  id: RULE,
  severity: 'error',
  description: 'Every node must be reachable from the start node.',
  check(graph, index) {
    if (index.startIds.length === 0) return [];
    const seen = new Set<string>(index.startIds);
    const stack = [...index.startIds];
    const visit = (id: string | undefined): void => {
      if (id === undefined || seen.has(id)) return;
      seen.add(id);
      stack.push(id);
    };
    for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
      for (const edge of index.edgesFrom(id)) visit(edge.target);
      const node = index.nodes.get(id);
      if (!node) continue;
      visit(node.attrs.retry_target);
      visit(node.attrs.fallback_retry_target);
      if (node.attrs.goal_gate === true) {
        visit(graph.attrs.retry_target);
        visit(graph.attrs.fallback_retry_target);
      }
    }
    const start = index.startIds[0];
    const findings: Diagnostic[] = [];
    for (const node of graph.nodes) {
      if (seen.has(node.id)) continue;
      findings.push({
        rule: RULE,
        severity: 'error',
        message: `Node "${node.id}" cannot be reached from the start node "${start}".`,
        node_id: node.id,
        fix: `Add an edge leading to "${node.id}", or remove the node.`,
        loc: node.loc,
      });
    }
    return findings;
  },
};
