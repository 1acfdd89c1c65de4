import { normalizeLabel } from '../compiler/accelerator.js';
import type { PipelineEdge } from '../compiler/ir.js';
import { compareEdges, isConditional } from '../compiler/routing/select-edge.js';

export interface RouteFacts {
  /** Outgoing edges of the node that completed. */
  edges: readonly PipelineEdge[];
  /** The node the run went to next. */
  target: string;
  status: string;
  preferredLabel?: string;
}

/**
 * Says, in words, which step of edge selection (docs/semantics.md S2, S3) most plausibly chose the edge the run
 * took, for event logs recorded before the engine reported its decision (`edge.selected`, which
 * describe-route.ts words and which wins when present). It reasons from the outcome the node reported
 * and the edges that lead to the target: a condition, the preferred label, the router model, a
 * suggested id, or weight and order among unconditional edges.
 */
export function explainRoute(facts: RouteFacts): string {
  const candidates = facts.edges.filter((edge) => edge.target === facts.target);
  const conditional = candidates.find(isConditional);
  if (conditional) {
    const condition = (conditional.attrs.condition ?? '').trim();
    return facts.status === 'fail' && /outcome\s*=\s*fail/.test(condition)
      ? `failure edge: ${condition}`
      : `condition ${condition}`;
  }
  if (candidates.length === 0) return 'jump (not an edge of this node)';
  const preferred = facts.preferredLabel?.trim();
  if (
    preferred &&
    candidates.some(
      (edge) => edge.attrs.label && normalizeLabel(edge.attrs.label) === normalizeLabel(preferred),
    )
  ) {
    return `preferred label "${preferred}"`;
  }
  if (candidates.some((edge) => edge.attrs.llm_decide === true)) return 'router model choice';
  const plain = facts.edges.filter((edge) => !isConditional(edge));
  if (plain.length <= 1) return 'only edge';
  const best = [...plain].sort(compareEdges)[0];
  if (best?.target !== facts.target) return 'suggested next node';
  const tie = plain.filter((edge) => (edge.attrs.weight ?? 0) === (best.attrs.weight ?? 0)).length > 1;
  return tie ? 'first by target id among equal weights' : `highest weight (${best.attrs.weight ?? 0})`;
}
