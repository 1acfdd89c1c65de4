/**
 * Builds PipelineGraph objects for compiler tests from a compact spec, without the DOT parser.
 * Every attribute written in `nodes`/`edges`/`attrs` gets an attrLoc (as if written in the DOT);
 * `nodeDefaults` fill attributes without an attrLoc (as a `node [...]` block does).
 */
import {
  type EdgeAttrs,
  type GraphAttrs,
  type NodeAttrs,
  type PipelineEdge,
  type PipelineGraph,
  type PipelineNode,
  SHAPE_HANDLERS,
  type SourceLocation,
} from '../../src/compiler/ir.js';

export type NodeSpec = NodeAttrs & {
  /** Extra classes (e.g. derived from a subgraph), on top of those in `class`. */
  classes?: string[];
  subgraph?: string;
  extra?: Record<string, string>;
};

export type EdgeSpec = string | [source: string, target: string, attrs?: EdgeAttrs];

export interface GraphSpec {
  name?: string;
  file?: string;
  attrs?: GraphAttrs;
  nodeDefaults?: NodeAttrs;
  nodes?: Record<string, NodeSpec>;
  /** `'a -> b -> c'` chains, or `[source, target, attrs]`. */
  edges?: EdgeSpec[];
}

let line = 0;
const loc = (file?: string): SourceLocation => ({ ...(file ? { file } : {}), line: ++line, column: 1 });

function locsFor(keys: string[], file?: string): Record<string, SourceLocation> {
  return Object.fromEntries(keys.map((key) => [key, loc(file)]));
}

function makeNode(id: string, spec: NodeSpec | undefined, graph: GraphSpec): PipelineNode {
  const { classes = [], subgraph, extra = {}, ...written } = spec ?? {};
  const attrs: NodeAttrs = { ...graph.nodeDefaults, ...written };
  const handler = attrs.type ?? SHAPE_HANDLERS[attrs.shape ?? 'box'] ?? 'codergen';
  const fromClass = (attrs.class ?? '').split(/[\s,]+/).filter(Boolean);
  return {
    id,
    handler,
    attrs,
    extra,
    classes: [...new Set([...fromClass, ...classes])],
    ...(subgraph ? { subgraph } : {}),
    implicit: spec === undefined,
    loc: loc(graph.file),
    attrLocs: locsFor(Object.keys(written), graph.file),
  };
}

export function buildGraph(spec: GraphSpec): PipelineGraph {
  const pairs: Array<[string, string, EdgeAttrs]> = [];
  for (const edge of spec.edges ?? []) {
    if (typeof edge === 'string') {
      const ids = edge.split('->').map((part) => part.trim());
      for (let i = 0; i + 1 < ids.length; i++) pairs.push([ids[i] as string, ids[i + 1] as string, {}]);
    } else {
      pairs.push([edge[0], edge[1], edge[2] ?? {}]);
    }
  }
  const ids = [...Object.keys(spec.nodes ?? {})];
  for (const [source, target] of pairs) {
    for (const id of [source, target]) if (!ids.includes(id)) ids.push(id);
  }
  const nodes = ids.map((id) => makeNode(id, spec.nodes?.[id], spec));
  const edges: PipelineEdge[] = pairs.map(([source, target, attrs], index) => ({
    index,
    source,
    target,
    attrs,
    extra: {},
    loc: loc(spec.file),
    attrLocs: locsFor(Object.keys(attrs), spec.file),
  }));
  return {
    name: spec.name ?? 'test',
    attrs: spec.attrs ?? {},
    extra: {},
    nodes,
    edges,
    ...(spec.file ? { file: spec.file } : {}),
    loc: loc(spec.file),
    attrLocs: locsFor(Object.keys(spec.attrs ?? {}), spec.file),
  };
}

export function nodeOf(graph: PipelineGraph, id: string): PipelineNode {
  const node = graph.nodes.find((candidate) => candidate.id === id);
  if (!node) throw new Error(`no node ${id}`);
  return node;
}

export function edgesFrom(graph: PipelineGraph, id: string): PipelineEdge[] {
  return graph.edges.filter((edge) => edge.source === id);
}
