/**
 * The intermediate representation every compiler pass reads and writes.
 * A graph is plain data (no classes, no Maps) so it can be snapshotted, serialised and handed to workers.
 * Attribute keys are the canonical DOT names (after aliases, docs/semantics.md); values are typed.
 */
import type { z } from 'zod';
import type { SourceSpan } from '../shared/errors.js';
import type { edgeAttrsSchema } from './attributes/edge-attrs-schema.js';
import type { graphAttrsSchema } from './attributes/graph-attrs-schema.js';
import type { nodeAttrsSchema } from './attributes/node-attrs-schema.js';
import type { ReadScope } from './files/read-scope.js';

export type SourceLocation = SourceSpan;

export type AttrValue = string | number | boolean;

/**
 * Attributes a node may carry, typed (the output of the zod schema in attributes/). Durations are
 * milliseconds. Unknown keys live in `extra`.
 */
export type NodeAttrs = z.output<typeof nodeAttrsSchema>;

/** Edge attributes, typed. `weight` may be fractional (DOT accepts floats). */
export type EdgeAttrs = z.output<typeof edgeAttrsSchema>;

/** Graph attributes, typed. */
export type GraphAttrs = z.output<typeof graphAttrsSchema>;

export interface PipelineNode {
  id: string;
  /** Resolved handler type: `type` attribute, else shape mapping, else `codergen`. */
  handler: string;
  attrs: NodeAttrs;
  /** Unknown attributes, as written (strings), visible to custom handlers. */
  extra: Record<string, string>;
  /** Stylesheet classes: from `class` (commas or spaces) and enclosing subgraph labels. */
  classes: string[];
  /** Label of the innermost enclosing subgraph, if any. */
  subgraph?: string;
  /** True when the node appears only in edge statements. */
  implicit: boolean;
  loc: SourceLocation;
  /** Where each attribute was written (for diagnostics); absent for defaults/stylesheet values. */
  attrLocs: Record<string, SourceLocation>;
}

export interface PipelineEdge {
  /** Declaration index, unique in the graph: several edges between the same two nodes stay distinct. */
  index: number;
  source: string;
  target: string;
  attrs: EdgeAttrs;
  extra: Record<string, string>;
  loc: SourceLocation;
  attrLocs: Record<string, SourceLocation>;
}

export interface PipelineGraph {
  name: string;
  attrs: GraphAttrs;
  extra: Record<string, string>;
  /** In declaration order. */
  nodes: PipelineNode[];
  /** In declaration order; chains are expanded into one edge per pair. */
  edges: PipelineEdge[];
  /** Path of the DOT file, when compiled from a file: `@file` prompts and child dotfiles resolve against it. */
  file?: string;
  /**
   * Where the files this pipeline names may be read from (set by `loadPipeline`); absent, the DOT file's
   * folder and the working directory (`defaultReadScope`).
   */
  readScope?: ReadScope;
  loc: SourceLocation;
  attrLocs: Record<string, SourceLocation>;
}

/** Shape → handler type. Unknown shapes fall back to `codergen`. */
export const SHAPE_HANDLERS: Readonly<Record<string, string>> = {
  Mdiamond: 'start',
  Msquare: 'exit',
  box: 'codergen',
  hexagon: 'wait.human',
  diamond: 'conditional',
  component: 'parallel',
  tripleoctagon: 'parallel.fan_in',
  parallelogram: 'tool',
  house: 'stack.manager_loop',
};

export const BUILTIN_HANDLER_TYPES: readonly string[] = [
  'start',
  'exit',
  'codergen',
  'wait.human',
  'conditional',
  'parallel',
  'parallel.fan_in',
  'tool',
  'stack.manager_loop',
];

export const FIDELITY_MODES = [
  'full',
  'compact',
  'truncate',
  'summary:low',
  'summary:medium',
  'summary:high',
] as const;
export type FidelityMode = (typeof FIDELITY_MODES)[number];
