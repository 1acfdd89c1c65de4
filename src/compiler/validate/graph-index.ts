/**
 * Lookup tables over a PipelineGraph, built once in O(V+E) and shared by every lint rule and by the engine,
 * so nothing downstream scans the edge list per node (a 10,000-node graph stays linear).
 *
 * Start and exit detection follow docs/semantics.md: start = `shape=Mdiamond` (or `type=start`), else a node named
 * `start`/`Start`; exit = `shape=Msquare` (or `type=exit`), else the nodes named `exit`/`end`.
 */
import type { PipelineEdge, PipelineGraph, PipelineNode } from '../ir.js';

export interface GraphIndex {
  /** Every declared node by id. */
  readonly nodes: ReadonlyMap<string, PipelineNode>;
  /** Outgoing edges by source id, in declaration order (also keyed by ids that are not declared nodes). */
  readonly outgoing: ReadonlyMap<string, readonly PipelineEdge[]>;
  /** Incoming edges by target id, in declaration order (also keyed by ids that are not declared nodes). */
  readonly incoming: ReadonlyMap<string, readonly PipelineEdge[]>;
  /** Start node ids, in declaration order; a valid pipeline has exactly one. */
  readonly startIds: readonly string[];
  /** Exit node ids, in declaration order; a valid pipeline has at least one. */
  readonly exitIds: readonly string[];
  /** Same ids as `exitIds`, for O(1) membership tests. */
  readonly exitIdSet: ReadonlySet<string>;
  /** Outgoing edges of `id` (empty when none). */
  edgesFrom(id: string): readonly PipelineEdge[];
  /** Incoming edges of `id` (empty when none). */
  edgesTo(id: string): readonly PipelineEdge[];
}

const START_NAMES: ReadonlySet<string> = new Set(['start', 'Start']);
const EXIT_NAMES: ReadonlySet<string> = new Set(['exit', 'end']);
const NO_EDGES: readonly PipelineEdge[] = Object.freeze([]);

/** True when the node is a start node by shape or type (the by-name fallback needs the whole graph). */
export function isStartNode(node: PipelineNode): boolean {
  return node.handler === 'start' || node.attrs.shape === 'Mdiamond';
}

/**
 * True when the node is an exit node by shape or type. The by-name fallback (`exit`/`end`) applies only when
 * the graph has no such node, so it needs the graph: use `findExitNodes` or `GraphIndex.exitIdSet` for that.
 */
export function isExitNode(node: PipelineNode): boolean {
  return node.handler === 'exit' || node.attrs.shape === 'Msquare';
}

/** The start nodes of the graph (docs/semantics.md), in declaration order. */
export function findStartNodes(graph: PipelineGraph): PipelineNode[] {
  const explicit = graph.nodes.filter(isStartNode);
  return explicit.length > 0 ? explicit : graph.nodes.filter((node) => START_NAMES.has(node.id));
}

/** The exit nodes of the graph (docs/semantics.md), in declaration order. */
export function findExitNodes(graph: PipelineGraph): PipelineNode[] {
  const explicit = graph.nodes.filter(isExitNode);
  return explicit.length > 0 ? explicit : graph.nodes.filter((node) => EXIT_NAMES.has(node.id));
}

function push(map: Map<string, PipelineEdge[]>, key: string, edge: PipelineEdge): void {
  const list = map.get(key);
  if (list) list.push(edge);
  else map.set(key, [edge]);
}

/**
 * Builds the lookup tables of a graph. When a node id is declared twice (only possible in hand-built IR; the
 * parser merges), the first declaration wins.
 *
 * @example
 * const index = indexGraph(graph);
 * const [start] = index.startIds;
 * for (const edge of index.edgesFrom(start)) console.log(edge.target);
 */
export function indexGraph(graph: PipelineGraph): GraphIndex {
  const nodes = new Map<string, PipelineNode>();
  for (const node of graph.nodes) if (!nodes.has(node.id)) nodes.set(node.id, node);

  const outgoing = new Map<string, PipelineEdge[]>();
  const incoming = new Map<string, PipelineEdge[]>();
  for (const edge of graph.edges) {
    push(outgoing, edge.source, edge);
    push(incoming, edge.target, edge);
  }

  const startIds = findStartNodes(graph).map((node) => node.id);
  const exitIds = findExitNodes(graph).map((node) => node.id);
  return {
    nodes,
    outgoing,
    incoming,
    startIds,
    exitIds,
    exitIdSet: new Set(exitIds),
    edgesFrom: (id) => outgoing.get(id) ?? NO_EDGES,
    edgesTo: (id) => incoming.get(id) ?? NO_EDGES,
  };
}
