/**
 * The intermediate representation every compiler pass reads and writes.
 * A graph is plain data (no classes, no Maps) so it can be snapshotted, serialised and handed to workers.
 * Attribute keys are the canonical DOT names (after aliases, DECISIONS §10); values are typed.
 */
import type { SourceSpan } from '../shared/errors.js';

export type SourceLocation = SourceSpan;

export type AttrValue = string | number | boolean;

/** Attributes a node may carry, typed. Durations are milliseconds. Unknown keys live in `extra`. */
export interface NodeAttrs {
  label?: string;
  shape?: string;
  type?: string;
  prompt?: string;
  class?: string;
  max_retries?: number;
  goal_gate?: boolean;
  retry_target?: string;
  fallback_retry_target?: string;
  fidelity?: string;
  thread_id?: string;
  timeout?: number;
  llm_model?: string;
  llm_provider?: string;
  reasoning_effort?: string;
  auto_status?: boolean;
  allow_partial?: boolean;
  retry_policy?: string;
  temperature?: number;
  max_tokens?: number;
  tool_command?: string;
  env_passthrough?: string;
  join_policy?: string;
  join_k?: number;
  error_policy?: string;
  max_parallel?: number;
  'human.default_choice'?: string;
  'human.timeout'?: number;
  'manager.poll_interval'?: number;
  'manager.max_cycles'?: number;
  'manager.stop_condition'?: string;
  'manager.actions'?: string;
  'stack.child_dotfile'?: string;
}

export interface EdgeAttrs {
  label?: string;
  condition?: string;
  weight?: number;
  fidelity?: string;
  thread_id?: string;
  loop_restart?: boolean;
  llm_decide?: boolean;
}

export interface GraphAttrs {
  goal?: string;
  label?: string;
  model_stylesheet?: string;
  default_max_retries?: number;
  retry_target?: string;
  fallback_retry_target?: string;
  default_fidelity?: string;
  default_thread_id?: string;
  router_model?: string;
  env_passthrough?: string;
  'stack.child_dotfile'?: string;
  'manager.poll_interval'?: number;
  'manager.max_cycles'?: number;
  'manager.stop_condition'?: string;
}

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
  loc: SourceLocation;
  attrLocs: Record<string, SourceLocation>;
}

/** Shape → handler type (reference §2). Unknown shapes fall back to `codergen`. */
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

export const FIDELITY_MODES = ['full', 'compact', 'truncate', 'summary:low', 'summary:medium', 'summary:high'] as const;
export type FidelityMode = (typeof FIDELITY_MODES)[number];
