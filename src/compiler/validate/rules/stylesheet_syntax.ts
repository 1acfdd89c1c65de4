import type { Diagnostic } from '../../diagnostic.js';
import type { PipelineGraph } from '../../ir.js';
import { checkStylesheetSyntax, parseStylesheet } from '../../stylesheet/index.js';
import type { LintRule } from '../lint-rule.js';
import { asSentence } from './describe.js';

const RULE = 'stylesheet_syntax';
const FIX =
  'Write rules as `selector { property: value; }` with selectors `*`, a shape, `.class` or `#node_id`.';

function finding(graph: PipelineGraph, message: string): Diagnostic {
  return {
    rule: RULE,
    severity: 'error',
    message: asSentence(message),
    fix: FIX,
    loc: graph.attrLocs['model_stylesheet'] ?? graph.loc,
  };
}

/**
 * The graph's `model_stylesheet` parses and has at least one rule ("invalid syntax or no
 * rules"). The stylesheet transform skips a stylesheet it cannot parse instead of throwing, so this rule is
 * where the author learns about it. A blank attribute counts as no stylesheet.
 */
export const stylesheetSyntaxRule: LintRule = {
  id: RULE,
  severity: 'error',
  description: 'The model_stylesheet must be valid stylesheet syntax with at least one rule.',
  check(graph) {
    const text = graph.attrs.model_stylesheet;
    if (text === undefined || text.trim() === '') return [];
    const problem = checkStylesheetSyntax(text);
    if (problem) {
      return [
        finding(
          graph,
          `The model_stylesheet is invalid at its line ${problem.line}, column ${problem.column}: ${problem.message}`,
        ),
      ];
    }
    if (parseStylesheet(text).rules.length === 0) {
      return [finding(graph, 'The model_stylesheet has no rules, so it styles nothing')];
    }
    return [];
  },
};
