import type { PipelineGraph } from '../../../../src/compiler/ir.js';

/** One row of the built-in rule table: the findings of `rule` on `graph`, as node ids, `source->target` or `graph`. */
export interface RuleCase {
  rule: string;
  name: string;
  graph: PipelineGraph;
  expected: string[];
  /** The findings' severity when it is not the rule's (type_known reports a misspelt shape as a warning). */
  severity?: 'error' | 'warning' | 'info';
}
