import type { Diagnostic } from '../../diagnostic.js';
import type { LintRule } from '../lint-rule.js';
import { describeEdge, edgeRef } from './describe.js';

const RULE = 'edge_target_exists';

/**
 * Both ends of every edge are declared nodes. The DOT parser declares implicit nodes for edge ends, so this
 * fires for IR built or transformed in code.
 */
export const edgeTargetExistsRule: LintRule = {
  id: RULE,
  severity: 'error',
  description: 'Every edge source and target must refer to an existing node.',
  check(graph, index) {
    const findings: Diagnostic[] = [];
    for (const edge of graph.edges) {
      for (const [end, id] of [
        ['source', edge.source],
        ['target', edge.target],
      ] as const) {
        if (index.nodes.has(id)) continue;
        findings.push({
          rule: RULE,
          severity: 'error',
          message: `Edge ${describeEdge(edge)} has a ${end} "${id}" that is not a node of the pipeline.`,
          edge: edgeRef(edge),
          fix: `Fix the node id "${id}" in the edge, or declare the node.`,
          loc: edge.loc,
        });
      }
    }
    return findings;
  },
};
