import type { Diagnostic } from '../../diagnostic.js';
import type { PipelineEdge, PipelineGraph, PipelineNode } from '../../ir.js';
import type { GraphIndex } from '../graph-index.js';
import type { LintRule } from '../lint-rule.js';
import { stronglyConnectedComponents } from '../strongly-connected-components.js';

const RULE = 'cycles';

/** Handlers that decide where to go next at run time, so a loop through them is a deliberate design. */
const ROUTING_HANDLERS: ReadonlySet<string> = new Set(['wait.human', 'conditional', 'stack.manager_loop']);

/**
 * An edge that shows the author meant the loop: it is guarded by a condition, restarts the loop, is left to the
 * router model, jumps to a declared retry target, or is one labelled choice among several (the LLM's
 * preferred_label picks it).
 */
function isDeliberateEdge(edge: PipelineEdge, graph: PipelineGraph, index: GraphIndex): boolean {
  const { attrs } = edge;
  if ((attrs.condition?.trim() ?? '') !== '' || attrs.loop_restart === true || attrs.llm_decide === true) {
    return true;
  }
  const source = index.nodes.get(edge.source);
  const retryTargets = [
    source?.attrs.retry_target,
    source?.attrs.fallback_retry_target,
    graph.attrs.retry_target,
    graph.attrs.fallback_retry_target,
  ];
  if (retryTargets.includes(edge.target)) return true;
  return (attrs.label?.trim() ?? '') !== '' && index.edgesFrom(edge.source).length > 1;
}

function nameNodes(members: readonly PipelineNode[]): string {
  const shown = members.slice(0, 5).map((node) => `"${node.id}"`);
  const more = members.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

function finding(members: readonly PipelineNode[], message: string, fix: string): Diagnostic {
  const first = members[0]!;
  return { rule: RULE, severity: 'warning', message, node_id: first.id, fix, loc: first.loc };
}

/**
 * Loops the author did not clearly intend, found with
 * Tarjan's SCC in O(V+E). A component is fine when one of its nodes routes at run time (human gate,
 * conditional, manager loop) or one of its internal edges is deliberate (see `isDeliberateEdge`). Separately,
 * a loop with no edge leaving it traps every run that enters it.
 */
export const cyclesRule: LintRule = {
  id: RULE,
  severity: 'warning',
  description: 'Cycles should be controlled by a condition, a human gate, a router or a loop_restart edge.',
  check(graph, index) {
    const ids = [...index.nodes.keys()];
    const successors = (id: string) => index.edgesFrom(id).map((edge) => edge.target);
    const position = new Map(graph.nodes.map((node, i) => [node, i]));
    const findings: { at: number; diagnostic: Diagnostic }[] = [];
    for (const component of stronglyConnectedComponents(ids, successors)) {
      const only = component[0]!;
      if (component.length === 1 && !index.edgesFrom(only).some((edge) => edge.target === only)) continue;
      const inside = new Set(component);
      const members = component
        .map((id) => index.nodes.get(id)!)
        .sort((a, b) => (position.get(a) ?? 0) - (position.get(b) ?? 0));
      let deliberate = members.some((node) => ROUTING_HANDLERS.has(node.handler));
      let leaves = false;
      for (const id of component) {
        for (const edge of index.edgesFrom(id)) {
          if (!inside.has(edge.target)) leaves = true;
          else if (!deliberate && isDeliberateEdge(edge, graph, index)) deliberate = true;
        }
      }
      const names = nameNodes(members);
      const at = position.get(members[0]!) ?? 0;
      if (!deliberate) {
        findings.push({
          at,
          diagnostic: finding(
            members,
            `Nodes ${names} form a loop that no condition, human gate or loop_restart controls, so a run can circle it until --max-steps.`,
            'Add a condition to the edge that closes the loop (for example `condition="outcome!=success"`), or route it through a diamond or hexagon node.',
          ),
        });
      } else if (!leaves) {
        findings.push({
          at,
          diagnostic: finding(
            members,
            `Nodes ${names} form a loop with no edge leaving it, so a run that enters it can never reach an exit.`,
            'Add an edge from one of these nodes to a node outside the loop (for example when `outcome=success`).',
          ),
        });
      }
    }
    return findings.sort((a, b) => a.at - b.at).map((entry) => entry.diagnostic);
  },
};
