import type { PipelineGraph } from '../compiler/ir.js';

/**
 * Display order for the pipeline pane: breadth-first from the start node along declared edges (so the
 * list reads like the flow), unreachable nodes after in declaration order, exit nodes last. Nodes of
 * one subgraph are pulled together at the position of the group's first member, so a group reads as
 * one block under its label.
 */
export function orderNodes(graph: PipelineGraph): string[] {
  const isExit = (id: string) => graph.nodes.find((n) => n.id === id)?.handler === 'exit';
  const start = graph.nodes.find((n) => n.handler === 'start') ?? graph.nodes[0];
  const seen = new Set<string>();
  const flow: string[] = [];
  const queue = start ? [start.id] : [];
  while (queue.length > 0) {
    const id = queue.shift() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    flow.push(id);
    for (const edge of graph.edges) if (edge.source === id && !seen.has(edge.target)) queue.push(edge.target);
  }
  for (const node of graph.nodes) if (!seen.has(node.id)) flow.push(node.id);

  const subgraphOf = new Map(graph.nodes.map((n) => [n.id, n.subgraph]));
  const grouped: string[] = [];
  const placed = new Set<string>();
  for (const id of flow.filter((n) => !isExit(n))) {
    if (placed.has(id)) continue;
    const group = subgraphOf.get(id);
    const members =
      group === undefined ? [id] : flow.filter((n) => subgraphOf.get(n) === group && !isExit(n));
    for (const member of members) {
      placed.add(member);
      grouped.push(member);
    }
  }
  return [...grouped, ...flow.filter(isExit)];
}
