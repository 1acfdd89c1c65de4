import type { Diagnostic } from '../../diagnostic.js';
import type { LintRule } from '../lint-rule.js';

const RULE = 'start_node';

/** Exactly one start node: `shape=Mdiamond`, else a node named `start`/`Start` (docs/semantics.md). */
export const startNodeRule: LintRule = {
  id: RULE,
  severity: 'error',
  description: 'A pipeline must have exactly one start node (shape=Mdiamond).',
  check(graph, index) {
    const [first, ...extra] = index.startIds;
    if (first === undefined) {
      return [
        {
          rule: RULE,
          severity: 'error',
          message: 'The pipeline has no start node.',
          fix: 'Add a node with shape=Mdiamond (for example `start [shape=Mdiamond]`) and an edge from it.',
          loc: graph.loc,
        },
      ];
    }
    return extra.map((id): Diagnostic => {
      const node = index.nodes.get(id);
      return {
        rule: RULE,
        severity: 'error',
        message: `Node "${id}" is a second start node (the first is "${first}"); a pipeline has exactly one.`,
        node_id: id,
        fix: `Keep one start node: give "${id}" another shape, or remove it.`,
        ...(node ? { loc: node.loc } : {}),
      };
    });
  },
};
