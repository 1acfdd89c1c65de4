import { checkConditionSyntax } from '../../conditions/index.js';
import type { Diagnostic } from '../../diagnostic.js';
import { excerpt } from '../../excerpt.js';
import type { LintRule } from '../lint-rule.js';
import { asSentence, describeEdge, edgeRef } from './describe.js';

const RULE = 'condition_syntax';

function explain(problem: { message: string; column: number; hint?: string }, text: string): string {
  return `\`${excerpt(text)}\` is not a valid condition at column ${problem.column}: ${problem.message}`;
}

const FIX = 'Write conditions like `outcome=success`, `context.key!=value` or `a=1 && b=2`.';

/**
 * Edge conditions (and `manager.stop_condition`, evaluated the same way) parse, so a typo fails before the
 * run starts rather than silently routing down another edge.
 */
export const conditionSyntaxRule: LintRule = {
  id: RULE,
  severity: 'error',
  description: 'Edge conditions and manager stop conditions must be valid condition expressions.',
  check(graph) {
    const findings: Diagnostic[] = [];
    for (const edge of graph.edges) {
      const text = edge.attrs.condition;
      if (text === undefined || text.trim() === '') continue;
      const problem = checkConditionSyntax(text);
      if (!problem) continue;
      findings.push({
        rule: RULE,
        severity: 'error',
        message: asSentence(`Edge ${describeEdge(edge)}: ${explain(problem, text)}`),
        edge: edgeRef(edge),
        fix: problem.hint ?? FIX,
        loc: edge.attrLocs['condition'] ?? edge.loc,
      });
    }
    for (const node of graph.nodes) {
      const text = node.attrs['manager.stop_condition'];
      if (text === undefined || text.trim() === '') continue;
      const problem = checkConditionSyntax(text);
      if (!problem) continue;
      findings.push({
        rule: RULE,
        severity: 'error',
        message: asSentence(`Node "${node.id}" manager.stop_condition ${explain(problem, text)}`),
        node_id: node.id,
        fix: problem.hint ?? FIX,
        loc: node.attrLocs['manager.stop_condition'] ?? node.loc,
      });
    }
    const graphText = graph.attrs['manager.stop_condition'];
    if (graphText !== undefined && graphText.trim() !== '') {
      const problem = checkConditionSyntax(graphText);
      if (problem) {
        findings.push({
          rule: RULE,
          severity: 'error',
          message: asSentence(`Graph manager.stop_condition ${explain(problem, graphText)}`),
          fix: problem.hint ?? FIX,
          loc: graph.attrLocs['manager.stop_condition'] ?? graph.loc,
        });
      }
    }
    return findings;
  },
};
