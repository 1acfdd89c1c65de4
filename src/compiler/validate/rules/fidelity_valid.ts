import { closest } from '../../closest-name.js';
import type { Diagnostic } from '../../diagnostic.js';
import { FIDELITY_MODES } from '../../ir.js';
import type { LintRule } from '../lint-rule.js';
import { describeEdge, edgeRef } from './describe.js';
import { replaceValue } from './replace-value.js';

const RULE = 'fidelity_valid';
const MODES: ReadonlySet<string> = new Set(FIDELITY_MODES);
const FIX = `Use one of: ${FIDELITY_MODES.join(', ')}.`;

/** A misspelt fidelity would silently fall back to the next level of the precedence chain. */
export const fidelityValidRule: LintRule = {
  id: RULE,
  severity: 'warning',
  description: 'Fidelity values on the graph, nodes and edges must be recognised modes.',
  check(graph) {
    const findings: Diagnostic[] = [];
    const graphMode = graph.attrs.default_fidelity;
    if (graphMode !== undefined && !MODES.has(graphMode)) {
      findings.push({
        rule: RULE,
        severity: 'warning',
        message: `Graph default_fidelity "${graphMode}" is not a fidelity mode.`,
        fix: FIX,
        ...replaceValue(graph.attrLocs['default_fidelity'], graphMode, closest(graphMode, FIDELITY_MODES)),
        loc: graph.attrLocs['default_fidelity'] ?? graph.loc,
      });
    }
    for (const node of graph.nodes) {
      const mode = node.attrs.fidelity;
      if (mode === undefined || MODES.has(mode)) continue;
      findings.push({
        rule: RULE,
        severity: 'warning',
        message: `Node "${node.id}" has fidelity "${mode}", which is not a fidelity mode.`,
        node_id: node.id,
        fix: FIX,
        ...replaceValue(node.attrLocs['fidelity'], mode, closest(mode, FIDELITY_MODES)),
        loc: node.attrLocs['fidelity'] ?? node.loc,
      });
    }
    for (const edge of graph.edges) {
      const mode = edge.attrs.fidelity;
      if (mode === undefined || MODES.has(mode)) continue;
      findings.push({
        rule: RULE,
        severity: 'warning',
        message: `Edge ${describeEdge(edge)} has fidelity "${mode}", which is not a fidelity mode.`,
        edge: edgeRef(edge),
        fix: FIX,
        ...replaceValue(edge.attrLocs['fidelity'], mode, closest(mode, FIDELITY_MODES)),
        loc: edge.attrLocs['fidelity'] ?? edge.loc,
      });
    }
    return findings;
  },
};
