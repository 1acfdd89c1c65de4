import type { Diagnostic } from '../../diagnostic.js';
import type { LintRule } from '../lint-rule.js';
import { describeEdge, edgeRef } from './describe.js';

const RULE = 'exit_no_outgoing';

/** Reaching an exit ends the run, so an edge leaving it could never be taken. */
export const exitNoOutgoingRule: LintRule = {
  id: RULE,
  severity: 'error',
  description: 'An exit node must have no outgoing edges.',
  check(_graph, index) {
    const findings: Diagnostic[] = [];
    for (const id of index.exitIds) {
      for (const edge of index.edgesFrom(id)) {
        findings.push({
          rule: RULE,
          severity: 'error',
          message: `Edge ${describeEdge(edge)} leaves the exit node "${id}"; a run ends at an exit.`,
          node_id: id,
          edge: edgeRef(edge),
          fix: `Remove the edge, or make "${id}" a regular node and add a separate exit.`,
          loc: edge.loc,
        });
      }
    }
    return findings;
  },
};
