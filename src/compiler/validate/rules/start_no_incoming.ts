import type { Diagnostic } from '../../diagnostic.js';
import type { LintRule } from '../lint-rule.js';
import { describeEdge, edgeRef } from './describe.js';

const RULE = 'start_no_incoming';

/** Nothing routes back into the start node: loops go to the first real stage instead. */
export const startNoIncomingRule: LintRule = {
  id: RULE,
  severity: 'error',
  description: 'The start node must have no incoming edges.',
  check(_graph, index) {
    const findings: Diagnostic[] = [];
    for (const id of index.startIds) {
      for (const edge of index.edgesTo(id)) {
        findings.push({
          rule: RULE,
          severity: 'error',
          message: `Edge ${describeEdge(edge)} points into the start node "${id}".`,
          node_id: id,
          edge: edgeRef(edge),
          fix: `Point the edge at the first stage after "${id}" instead.`,
          loc: edge.loc,
        });
      }
    }
    return findings;
  },
};
