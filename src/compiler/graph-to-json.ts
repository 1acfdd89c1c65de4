/**
 * The `attractor compile --format json` shape (docs/semantics.md): the graph after transforms,
 * with attributes keyed by their canonical DOT names and typed values. Unknown attributes (`extra`)
 * are merged in as written, so the output shows everything a handler will see.
 */
import type { AttrValue, PipelineEdge, PipelineGraph, PipelineNode } from './ir.js';
import { type PipelineVar, parseVarsDeclaration } from './vars/pipeline-vars.js';

export type JsonAttrs = Record<string, AttrValue>;

export interface NodeJson {
  id: string;
  handler: string;
  attrs: JsonAttrs;
}

export interface EdgeJson {
  source: string;
  target: string;
  attrs: JsonAttrs;
}

export interface GraphJson {
  name: string;
  goal: string;
  /** Declared pipeline parameters (graph attribute `vars`). */
  params: PipelineVar[];
  attrs: JsonAttrs;
  nodes: NodeJson[];
  edges: EdgeJson[];
}

/**
 * @example
 * const { graph } = loadPipeline(source, { file: 'p.dot' });
 * process.stdout.write(JSON.stringify(graphToJson(graph), null, 2));
 */
export function graphToJson(graph: PipelineGraph): GraphJson {
  return {
    name: graph.name,
    goal: graph.attrs.goal ?? '',
    params: parseVarsDeclaration(graph.attrs.vars),
    attrs: mergeAttrs(graph.attrs, graph.extra),
    nodes: graph.nodes.map(nodeToJson),
    edges: graph.edges.map(edgeToJson),
  };
}

function nodeToJson(node: PipelineNode): NodeJson {
  const attrs = mergeAttrs(node.attrs, node.extra);
  // Classes derived from enclosing subgraphs live only in `classes`; show the full resolved list.
  if (node.classes.length > 0) attrs['class'] = node.classes.join(',');
  return { id: node.id, handler: node.handler, attrs: sortKeys(attrs) };
}

function edgeToJson(edge: PipelineEdge): EdgeJson {
  return { source: edge.source, target: edge.target, attrs: mergeAttrs(edge.attrs, edge.extra) };
}

/** Typed attributes win over an `extra` entry of the same name; keys sorted so output is stable. */
function mergeAttrs(typed: object, extra: Record<string, string>): JsonAttrs {
  const merged: JsonAttrs = { ...extra };
  for (const [key, value] of Object.entries(typed)) {
    if (isAttrValue(value)) merged[key] = value;
  }
  return sortKeys(merged);
}

function isAttrValue(value: unknown): value is AttrValue {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function sortKeys(attrs: JsonAttrs): JsonAttrs {
  const sorted: JsonAttrs = {};
  for (const key of Object.keys(attrs).sort()) sorted[key] = attrs[key] as AttrValue;
  return sorted;
}
