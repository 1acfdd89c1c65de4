import type { Diagnostic } from '../../diagnostic.js';
import type { LintRule } from '../lint-rule.js';
import { reachableNodes } from '../reachable-nodes.js';

const RULE = 'reachability';

/**
 * Every node reachable from the start node (`reachableNodes`: retry jumps count as paths). Orphans are an
 * ERROR (docs/semantics.md#c5), not a warning: an unreachable node is
 * almost always a typo in an edge. Without a start node there is nothing to measure from; `start_node` reports that.
 */
export const reachabilityRule: LintRule = {
  id: RULE,
  severity: 'error',
  description: 'Every node must be reachable from the start node.',
  check(graph, index) {
    if (index.startIds.length === 0) return [];
    const seen = reachableNodes(graph, index);
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
