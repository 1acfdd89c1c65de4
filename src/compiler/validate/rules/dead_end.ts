import { type ConditionNode, conditionsCover, parseCondition } from '../../conditions/index.js';
import type { Diagnostic } from '../../diagnostic.js';
import type { PipelineEdge, PipelineNode } from '../../ir.js';
import type { StageStatus } from '../../outcome.js';
import { isConditional } from '../../routing/select-edge.js';
import type { GraphIndex } from '../graph-index.js';
import type { LintRule } from '../lint-rule.js';
import { reachableNodes } from '../reachable-nodes.js';

const RULE = 'dead_end';

/**
 * The outcomes other than FAIL a node can route with: SUCCESS always; PARTIAL_SUCCESS where the node says
 * it accepts one (`allow_partial`). A FAIL goes through failure routing, never to a dead end.
 */
function routedStatuses(node: PipelineNode): StageStatus[] {
  return node.attrs.allow_partial === true ? ['success', 'partial_success'] : ['success'];
}

/** The parsed conditions of the edges, or undefined when one does not parse (condition_syntax reports it). */
function parsedConditions(edges: readonly PipelineEdge[]): ConditionNode[] | undefined {
  try {
    return edges.map((edge) => parseCondition(edge.attrs.condition as string));
  } catch {
    return undefined;
  }
}

function finding(node: PipelineNode, edges: readonly PipelineEdge[], status: StageStatus): Diagnostic {
  const first = edges[0];
  if (!first) {
    return {
      rule: RULE,
      severity: 'warning',
      message: `Node "${node.id}" has no outgoing edge and is not an exit: the run ends there, reported as a dead end (quality degraded).`,
      node_id: node.id,
      fix: `Add an edge from "${node.id}" to where the run should go next, or make it an exit (shape=Msquare).`,
      loc: node.loc,
    };
  }
  const conditions = edges.map((edge) => `"${edge.attrs.condition?.trim()}"`).join(', ');
  return {
    rule: RULE,
    severity: 'warning',
    message:
      `Node "${node.id}" has only conditional edges (${conditions}), and after outcome=${status} they can all be false ` +
      '(for a value none of them names, or an unset one): the run then ends there, reported as a dead end (quality degraded).',
    node_id: node.id,
    fix: `Add an unconditional edge from "${node.id}" as the fallback (for example ${node.id} -> ${first.target}), or a condition that covers every other case.`,
    loc: node.loc,
  };
}

/**
 * A node that is not an exit and whose outcome (other than FAIL) can find no eligible edge ends the run
 * there: completed, but a dead end (docs/decisions/0161-dead-ends-are-reported.md). Flagged so the author adds the missing fallback
 * edge or makes the node an exit. Parallel nodes are left out: they continue at their fan-in, and their
 * edges are branches.
 */
export const deadEndRule: LintRule = {
  id: RULE,
  severity: 'warning',
  description: 'A node that is not an exit needs an edge it can always take when it does not fail.',
  check(graph, index: GraphIndex) {
    const findings: Diagnostic[] = [];
    // With no exit at all every end is a dead end: terminal_node says so once.
    if (index.exitIds.length === 0) return findings;
    // An unreachable node is reachability's error already: one finding per place.
    const reached = reachableNodes(graph, index);
    for (const node of graph.nodes) {
      if (!reached.has(node.id) || index.exitIdSet.has(node.id) || node.handler === 'parallel') continue;
      const edges = index.edgesFrom(node.id);
      if (edges.some((edge) => !isConditional(edge))) continue;
      const conditions = parsedConditions(edges);
      if (!conditions) continue;
      // Undefined (too many keys to try every case) is left alone: a warning must be right.
      const open = routedStatuses(node).find((status) => conditionsCover(conditions, status) === false);
      if (open) findings.push(finding(node, edges, open));
    }
    return findings;
  },
};
