import type { LintRule } from '../lint-rule.js';

const RULE = 'terminal_node';

/**
 * At least one exit node: `shape=Msquare`, else a node named `exit`/`end` (docs/semantics.md#c5): not
 * "exactly one", so pipelines with several exits (success/abort) stay valid.
 */
export const terminalNodeRule: LintRule = {
  id: RULE,
  severity: 'error',
  description: 'A pipeline must have at least one exit node (shape=Msquare).',
  check(graph, index) {
    if (index.exitIds.length > 0) return [];
    return [
      {
        rule: RULE,
        severity: 'error',
        message: 'The pipeline has no exit node, so a run could never finish.',
        fix: 'Add a node with shape=Msquare (for example `done [shape=Msquare]`) and an edge to it.',
        loc: graph.loc,
      },
    ];
  },
};
