import type { RawAttr } from '../attributes/raw-attr.js';
import type { SourceLocation } from '../ir.js';

/** A graph after DOT semantics (scopes, defaults, chains) but before attribute typing. Keys are canonical. */
export interface RawGraph {
  name: string;
  loc: SourceLocation;
  attrs: Map<string, RawAttr>;
  /** In order of first appearance. */
  nodes: RawNode[];
  /** In declaration order; chains and groups already expanded. */
  edges: RawEdge[];
}

export interface RawNode {
  id: string;
  /** Attributes written on the node's own statements; later statements win. */
  explicitAttrs: Map<string, RawAttr>;
  /** `node [...]` defaults in scope at each of its declarations; explicit attributes win over them. */
  defaultAttrs: Map<string, RawAttr>;
  /** Classes derived from enclosing subgraph labels, outermost first. */
  subgraphClasses: string[];
  subgraph?: string;
  implicit: boolean;
  loc: SourceLocation;
}

export interface RawEdge {
  index: number;
  source: string;
  target: string;
  /** Edge defaults in scope, overlaid with the statement's own attributes. */
  attrs: Map<string, RawAttr>;
  loc: SourceLocation;
}
