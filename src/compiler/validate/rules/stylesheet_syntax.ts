import { checkStylesheetSyntax } from '../../stylesheet/index.js';
import type { LintRule } from '../lint-rule.js';
import { asSentence } from './describe.js';

const RULE = 'stylesheet_syntax';

/**
 * The graph's `model_stylesheet` parses. The stylesheet transform skips a stylesheet it cannot parse instead of
 * throwing, so this rule is where the author learns about it.
 */
export const stylesheetSyntaxRule: LintRule = {
  id: RULE,
  severity: 'error',
  description: 'The model_stylesheet must be valid stylesheet syntax.',
  check(graph) {
    const text = graph.attrs.model_stylesheet;
    if (text === undefined || text.trim() === '') return [];
    const problem = checkStylesheetSyntax(text);
    if (!problem) return [];
    return [
      {
        rule: RULE,
        severity: 'error',
        message: asSentence(
          `The model_stylesheet is invalid at its line ${problem.line}, column ${problem.column}: ${problem.message}`,
        ),
        fix: 'Write rules as `selector { property: value; }` with selectors `*`, a shape, `.class` or `#node_id`.',
        loc: graph.attrLocs['model_stylesheet'] ?? graph.loc,
      },
    ];
  },
};
