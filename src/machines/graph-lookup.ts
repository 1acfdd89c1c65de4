import type { PipelineEdge, PipelineGraph, PipelineNode } from '../compiler/ir.js';

/** Lookup tables over a graph, built once per run; the machine's guards and actions read them. */
export interface GraphLookup {
  graph: PipelineGraph;
  node(id: string): PipelineNode;
  has(id: string): boolean;
  outgoing(id: string): readonly PipelineEdge[];
  edge(index: number): PipelineEdge;
}

export function createGraphLookup(graph: PipelineGraph): GraphLookup {
  const nodes = new Map(graph.nodes.map((n) => [n.id, n]));
  const outgoing = new Map<string, PipelineEdge[]>();
  const edges = new Map<number, PipelineEdge>();
  for (const e of graph.edges) {
    edges.set(e.index, e);
    const list = outgoing.get(e.source);
    if (list) list.push(e);
    else outgoing.set(e.source, [e]);
  }
  return {
    graph,
    node(id) {
      const n = nodes.get(id);
      if (!n) throw new Error(`unknown node ${id}`);
      return n;
    },
    has: (id) => nodes.has(id),
    outgoing: (id) => outgoing.get(id) ?? [],
    edge(index) {
      const e = edges.get(index);
      if (!e) throw new Error(`unknown edge #${index}`);
      return e;
    },
  };
}
