import type { PipelineGraph } from '../ir.js';

/**
 * The fan-in node the branches converge on, from the graph alone: the first `parallel.fan_in` node in
 * breadth-first order from the first branch that every branch start can reach. Used when no branch
 * reported reaching one (all cancelled or failed early).
 */
export function findFanIn(
  graph: Pick<PipelineGraph, 'nodes' | 'edges'>,
  startIds: readonly string[],
): string | undefined {
  const fanIns = new Set(
    graph.nodes.filter((node) => node.handler === 'parallel.fan_in').map((node) => node.id),
  );
  if (fanIns.size === 0 || startIds.length === 0) return undefined;
  const reachable = (start: string): string[] => {
    const order = [start];
    const seen = new Set(order);
    for (let i = 0; i < order.length; i++) {
      for (const edge of graph.edges) {
        if (edge.source === order[i] && !seen.has(edge.target)) {
          seen.add(edge.target);
          order.push(edge.target);
        }
      }
    }
    return order;
  };
  const [first, ...rest] = startIds.map(reachable);
  const others = rest.map((order) => new Set(order));
  return first?.find((id) => fanIns.has(id) && others.every((set) => set.has(id)));
}
