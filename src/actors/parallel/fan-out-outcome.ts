import type { PipelineGraph, PipelineNode } from '../../compiler/ir.js';
import type { Outcome } from '../../compiler/outcome.js';
import { findFanIn } from '../../compiler/routing/find-fan-in.js';
import type { Branch } from './fan-out.js';

/** The node names a retry target that exists: its FAIL jumps there rather than to the fan-in. */
function hasRetryTarget(node: PipelineNode, graph: PipelineGraph): boolean {
  return [node.attrs.retry_target, node.attrs.fallback_retry_target].some(
    (target) => target?.trim() && graph.nodes.some((n) => n.id === target.trim()),
  );
}

/** The fan-in most branches stopped at, else the one the graph leads them to. */
export function convergence(branches: readonly Branch[], graph: PipelineGraph): string | undefined {
  const isFanIn = (id: string) => graph.nodes.some((n) => n.id === id && n.handler === 'parallel.fan_in');
  const counts = new Map<string, number>();
  for (const branch of branches) {
    const at = branch.result?.stoppedAt;
    if (at && isFanIn(at)) counts.set(at, (counts.get(at) ?? 0) + 1);
  }
  let best: string | undefined;
  for (const [id, count] of counts) if (best === undefined || count > (counts.get(best) ?? 0)) best = id;
  return (
    best ??
    findFanIn(
      graph,
      branches.map((b) => b.startNodeId),
    )
  );
}

/**
 * Where the run goes after the fan-out: the fan-in is not an outgoing edge of the parallel node, so edge
 * selection could never pick it. A failed join goes there too (the fan-in fails in turn, and its fail
 * edge routes it), unless the node's own retry target takes over (docs/decisions/0161-dead-ends-are-reported.md).
 */
export function routeToFanIn(
  fanIn: string | undefined,
  status: Outcome['status'],
  node: PipelineNode,
  graph: PipelineGraph,
): Pick<Outcome, 'suggested_next_ids' | 'next_node'> {
  if (!fanIn) return {};
  return {
    suggested_next_ids: [fanIn],
    ...(status !== 'fail' || !hasRetryTarget(node, graph) ? { next_node: fanIn } : {}),
  };
}
