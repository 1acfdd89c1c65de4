import type { Diagnostic } from '../../diagnostic.js';
import type { PipelineNode } from '../../ir.js';
import { ISOLATION_MODES, MERGE_MODES } from '../../parallel-isolation.js';
import type { LintRule } from '../lint-rule.js';

const RULE = 'parallel_isolation';

function unknownValue(node: PipelineNode, key: 'isolation' | 'merge', allowed: readonly string[]) {
  const value = node.attrs[key];
  if (value === undefined || allowed.includes(value)) return undefined;
  return {
    rule: RULE,
    severity: 'error',
    message: `Node "${node.id}" has ${key}="${value}", which is not one of ${allowed.join(', ')}.`,
    node_id: node.id,
    fix: `Use ${key}=${allowed.map((mode) => `"${mode}"`).join(' or ')}.`,
    loc: node.attrLocs[key] ?? node.loc,
  } satisfies Diagnostic;
}

/**
 * A misspelt `isolation` would let branches write one folder, a misspelt `merge` would change what
 * reaches it, and `merge` anywhere but on an isolated parallel node would be ignored: all are errors.
 */
export const parallelIsolationRule: LintRule = {
  id: RULE,
  severity: 'error',
  description:
    'isolation and merge on parallel nodes must be known modes, and merge needs isolation="worktree".',
  check(graph) {
    const findings: Diagnostic[] = [];
    for (const node of graph.nodes) {
      const bad = [
        unknownValue(node, 'isolation', ISOLATION_MODES),
        unknownValue(node, 'merge', MERGE_MODES),
      ].filter((found) => found !== undefined);
      findings.push(...bad);
      if (bad.length > 0 || node.attrs.merge === undefined) continue;
      if (node.handler === 'parallel' && node.attrs.isolation === 'worktree') continue;
      findings.push({
        rule: RULE,
        severity: 'error',
        message: `Node "${node.id}" has merge="${node.attrs.merge}", which only a parallel node with isolation="worktree" uses.`,
        node_id: node.id,
        fix: 'Add isolation="worktree" to the parallel node, or remove merge.',
        loc: node.attrLocs['merge'] ?? node.loc,
      });
    }
    return findings;
  },
};
