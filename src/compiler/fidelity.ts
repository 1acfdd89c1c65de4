/**
 * What the LLM sees at a node (docs/semantics.md S6): the fidelity mode and, for `full`, which
 * session thread it continues.
 */
import {
  FIDELITY_MODES,
  type FidelityMode,
  type PipelineEdge,
  type PipelineGraph,
  type PipelineNode,
} from './ir.js';

export const DEFAULT_FIDELITY: FidelityMode = 'compact';

export function isFidelityMode(value: unknown): value is FidelityMode {
  return typeof value === 'string' && (FIDELITY_MODES as readonly string[]).includes(value);
}

export interface FidelityInput {
  /** The edge taken into `node`, if any. */
  edge?: PipelineEdge;
  node: PipelineNode;
  graph: PipelineGraph;
  /** True for the first node run after a resume: `full` degrades once to `summary:high`. */
  afterResume?: boolean;
}

/**
 * Edge `fidelity`, then node `fidelity`, then graph `default_fidelity`, then `compact`. Values that are
 * not a fidelity mode are skipped (the `fidelity_valid` lint rule warns about them). After a resume a
 * `full` result becomes `summary:high`, because the session it would continue is gone.
 *
 * @example
 * resolveFidelity({ node, graph }); // 'compact' when nothing is set
 */
export function resolveFidelity(input: FidelityInput): FidelityMode {
  const { edge, node, graph } = input;
  const candidates = [edge?.attrs.fidelity, node.attrs.fidelity, graph.attrs.default_fidelity];
  const mode = candidates.map((value) => value?.trim()).find(isFidelityMode) ?? DEFAULT_FIDELITY;
  return input.afterResume && mode === 'full' ? 'summary:high' : mode;
}

/** The class a subgraph label gives its nodes: lowercase, spaces → `-`, only `[a-z0-9-]` kept. */
export function subgraphClass(label: string): string {
  return label
    .toLowerCase()
    .replace(/\s+/g, '-')
    .replace(/[^a-z0-9-]/g, '');
}

export interface ThreadInput {
  edge?: PipelineEdge;
  node: PipelineNode;
  graph: PipelineGraph;
  /** The node the run came from. */
  previousNodeId?: string;
}

/**
 * The session thread a `full`-fidelity node continues; nodes with the same key share one LLM session.
 * Order: node `thread_id` (it says what the node is part
 * of), edge `thread_id`, graph `default_thread_id`, the class derived from the enclosing subgraph's
 * label, then the previous node's id (so a chain of `full` nodes continues one conversation), then the
 * node's own id.
 *
 * @example
 * resolveThreadId({ node, graph, previousNodeId: 'plan' }); // 'plan' when nothing else is set
 */
export function resolveThreadId(input: ThreadInput): string {
  const { edge, node, graph } = input;
  const subgraph = node.subgraph ? subgraphClass(node.subgraph) : undefined;
  const candidates = [
    node.attrs.thread_id,
    edge?.attrs.thread_id,
    graph.attrs.default_thread_id,
    subgraph,
    input.previousNodeId,
    node.id,
  ];
  return candidates.map((value) => value?.trim()).find((value): value is string => Boolean(value)) ?? node.id;
}
