import type { PipelineEdge, PipelineGraph } from './ir.js';

/**
 * A node's outgoing edges, in declaration order (`Pipeline.outgoing_edges`).
 *
 * @example
 * outgoingEdges(graph, 'review').map((e) => e.target); // ['implement', 'exit']
 */
export function outgoingEdges(graph: PipelineGraph, nodeId: string): PipelineEdge[] {
  return graph.edges.filter((edge) => edge.source === nodeId);
}

/**
 * A node's incoming edges, in declaration order (`Pipeline.incoming_edges`).
 *
 * @example
 * incomingEdges(graph, 'implement').map((e) => e.source); // ['plan', 'review']
 */
export function incomingEdges(graph: PipelineGraph, nodeId: string): PipelineEdge[] {
  return graph.edges.filter((edge) => edge.target === nodeId);
}
