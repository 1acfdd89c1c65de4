import type { RawAttr } from '../attributes/raw-attr.js';
import { type TypedAttributes, typeAttributes } from '../attributes/type-attributes.js';
import type { Diagnostic } from '../diagnostic.js';
import type { PipelineEdge, PipelineGraph, PipelineNode } from '../ir.js';
import type { RawGraph, RawNode } from './raw-graph.js';
import { resolveHandler } from './resolve-handler.js';
import { splitClasses } from './split-classes.js';

/**
 * Types every attribute of a {@link RawGraph} and assembles the IR. A wrongly typed or misspelt
 * `node [...]` or `edge [...]` default is reported once, at the default, not once per node that inherits it.
 */
export function typeRawGraph(
  raw: RawGraph,
  file?: string,
): { graph: PipelineGraph; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  // A default, or the attribute list of an edge chain, is one written attribute shared by several
  // nodes or edges: reported once, where it was written.
  const reported = new Set<RawAttr>();
  const collect = <T>(typed: TypedAttributes<T>): TypedAttributes<T> => {
    typed.diagnostics.forEach((diagnostic, i) => {
      const source = typed.diagnosticSources[i]!;
      if (reported.has(source)) return;
      reported.add(source);
      diagnostics.push(diagnostic);
    });
    return typed;
  };

  const graphTyped = collect(typeAttributes('graph', raw.attrs.values(), { describe: 'Graph attribute' }));
  const nodes = raw.nodes.map((node) => typeNode(node, collect));
  const edges = raw.edges.map((edge): PipelineEdge => {
    const typed = collect(
      typeAttributes('edge', edge.attrs.values(), {
        describe: `Edge ${edge.source} -> ${edge.target}`,
        edge: { source: edge.source, target: edge.target },
      }),
    );
    return {
      index: edge.index,
      source: edge.source,
      target: edge.target,
      attrs: typed.attrs,
      extra: typed.extra,
      loc: edge.loc,
      attrLocs: typed.attrLocs,
    };
  });

  const graph: PipelineGraph = {
    name: raw.name,
    attrs: graphTyped.attrs,
    extra: graphTyped.extra,
    nodes,
    edges,
    loc: raw.loc,
    attrLocs: graphTyped.attrLocs,
  };
  if (file !== undefined) graph.file = file;
  return { graph, diagnostics };
}

function typeNode(
  node: RawNode,
  collect: <T>(typed: TypedAttributes<T>) => TypedAttributes<T>,
): PipelineNode {
  const merged = new Map(node.defaultAttrs);
  for (const [key, attr] of node.explicitAttrs) merged.set(key, attr);
  const typed = collect(
    typeAttributes('node', merged.values(), { describe: `Node ${node.id}`, node_id: node.id }),
  );
  const classes = splitClasses(typed.attrs.class);
  for (const cls of node.subgraphClasses) if (!classes.includes(cls)) classes.push(cls);
  const result: PipelineNode = {
    id: node.id,
    handler: resolveHandler(typed.attrs),
    attrs: typed.attrs,
    extra: typed.extra,
    classes,
    implicit: node.implicit,
    loc: node.loc,
    attrLocs: typed.attrLocs,
  };
  if (node.subgraph !== undefined) result.subgraph = node.subgraph;
  return result;
}
