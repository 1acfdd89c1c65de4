import type { PipelineGraph } from '../ir.js';
import type { GraphIndex } from './graph-index.js';

/**
 * The nodes a run can reach from the start node(s). Retry jumps count as paths, because the engine takes
 * them: a reached node's `retry_target` and `fallback_retry_target`, and the graph's two targets once a
 * reached node is a goal gate (docs/semantics.md S3). Empty without a start node.
 */
export function reachableNodes(graph: PipelineGraph, index: GraphIndex): Set<string> {
  const seen = new Set<string>(index.startIds);
  const stack = [...index.startIds];
  const visit = (id: string | undefined): void => {
    if (id === undefined || seen.has(id)) return;
    seen.add(id);
    stack.push(id);
  };
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    for (const edge of index.edgesFrom(id)) visit(edge.target);
    const node = index.nodes.get(id);
    if (!node) continue;
    visit(node.attrs.retry_target);
    visit(node.attrs.fallback_retry_target);
    if (node.attrs.goal_gate === true) {
      visit(graph.attrs.retry_target);
      visit(graph.attrs.fallback_retry_target);
    }
  }
  return seen;
}
