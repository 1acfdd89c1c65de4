import { closest } from '../../closest-name.js';
import type { Diagnostic } from '../../diagnostic.js';
import type { LintRule } from '../lint-rule.js';
import { didYouMean, replaceValue } from './replace-value.js';

const RULE = 'retry_target_exists';
const KEYS = ['retry_target', 'fallback_retry_target'] as const;

/** A retry target that names no node would make a goal-gate or failure retry fail at run time. */
export const retryTargetExistsRule: LintRule = {
  id: RULE,
  severity: 'warning',
  description: 'retry_target and fallback_retry_target must name existing nodes.',
  check(graph, index) {
    const findings: Diagnostic[] = [];
    for (const key of KEYS) {
      const target = graph.attrs[key];
      if (target === undefined || target === '' || index.nodes.has(target)) continue;
      const near = closest(target, [...index.nodes.keys()]);
      findings.push({
        rule: RULE,
        severity: 'warning',
        message: `Graph ${key} "${target}" is not a node of the pipeline${didYouMean(near)}.`,
        fix: `Set ${key} to an existing node id.`,
        ...replaceValue(graph.attrLocs[key], target, near),
        loc: graph.attrLocs[key] ?? graph.loc,
      });
    }
    for (const node of graph.nodes) {
      for (const key of KEYS) {
        const target = node.attrs[key];
        if (target === undefined || target === '' || index.nodes.has(target)) continue;
        const near = closest(target, [...index.nodes.keys()]);
        findings.push({
          rule: RULE,
          severity: 'warning',
          message: `Node "${node.id}" has ${key} "${target}", which is not a node of the pipeline${didYouMean(near)}.`,
          node_id: node.id,
          fix: `Set ${key} to an existing node id.`,
          ...replaceValue(node.attrLocs[key], target, near),
          loc: node.attrLocs[key] ?? node.loc,
        });
      }
    }
    return findings;
  },
};
