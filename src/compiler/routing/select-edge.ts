import { definedFields } from '../../shared/defined-fields.js';
import { normalizeLabel } from '../accelerator.js';
import { type ConditionScope, evaluateCondition } from '../conditions/index.js';
import type { PipelineEdge } from '../ir.js';
import type { ReadonlyOutcome } from '../outcome.js';

export interface EdgeSelectionInput {
  /** Outgoing edges of the node that just ran. */
  edges: PipelineEdge[];
  outcome: ReadonlyOutcome;
  /** The run context; the outcome's `context_updates` are layered on top for evaluation. */
  context: Record<string, unknown>;
  /** Target id chosen by the router model among `llmDecideCandidates` (docs/semantics.md). */
  llmChoice?: string;
}

export const isConditional = (edge: PipelineEdge): boolean => (edge.attrs.condition ?? '').trim() !== '';

/**
 * The deterministic order among candidate edges: higher `weight` first, then target id (code-unit
 * order, not locale), then declaration index.
 */
export function compareEdges(a: PipelineEdge, b: PipelineEdge): number {
  const weight = (b.attrs.weight ?? 0) - (a.attrs.weight ?? 0);
  if (weight !== 0) return weight;
  if (a.target !== b.target) return a.target < b.target ? -1 : 1;
  return a.index - b.index;
}

export function bestEdge(edges: readonly PipelineEdge[]): PipelineEdge | undefined {
  return [...edges].sort(compareEdges)[0];
}

export function conditionScope(outcome: ReadonlyOutcome, context: Record<string, unknown>): ConditionScope {
  return {
    outcome: outcome.status,
    ...definedFields({ preferred_label: outcome.preferred_label }),
    context: outcome.context_updates ? { ...context, ...outcome.context_updates } : context,
  };
}

/** Step 1: conditional edges whose condition is true, best first. */
export function matchingConditionalEdges(
  edges: readonly PipelineEdge[],
  outcome: ReadonlyOutcome,
  context: Record<string, unknown>,
): PipelineEdge[] {
  const scope = conditionScope(outcome, context);
  return edges
    .filter((edge) => isConditional(edge) && evaluateCondition(edge.attrs.condition as string, scope))
    .sort(compareEdges);
}

/** Edges marked `llm_decide=true`: the router model's candidates (docs/semantics.md). */
export function llmDecideCandidates(edges: readonly PipelineEdge[]): PipelineEdge[] {
  return edges.filter((edge) => edge.attrs.llm_decide === true);
}

/**
 * The candidates the engine should offer the router model, or undefined when no model call is needed
 * (a condition already matched, or no edge is `llm_decide`).
 */
export function routerCandidates(input: Omit<EdgeSelectionInput, 'llmChoice'>): PipelineEdge[] | undefined {
  const candidates = llmDecideCandidates(input.edges);
  if (candidates.length === 0) return undefined;
  if (matchingConditionalEdges(input.edges, input.outcome, input.context).length > 0) return undefined;
  return candidates;
}

/**
 * Picks the next edge:
 * 1. the best conditional edge whose condition is true;
 * 1b. the `llm_decide` edge to the router model's `llmChoice`;
 * (steps 2–5 skip `llm_decide` edges when any other unconditional edge exists: that is the fallback)
 * 2. the unconditional edge whose label matches `preferred_label` (case-insensitive, accelerator stripped);
 * 3. the first unconditional edge to each of `suggested_next_ids`, in order;
 * 4–5. the unconditional edge with the highest weight, then the smallest target id.
 * A conditional edge whose condition is false is never chosen. Undefined when nothing is eligible.
 *
 * @example
 * selectEdge({ edges, outcome: { status: 'success', preferred_label: 'approve' }, context: {} });
 */
export function selectEdge(input: EdgeSelectionInput): PipelineEdge | undefined {
  return selectEdgeStep(input)?.edge;
}

/**
 * Which step of edge selection decided: a true `condition`, the router model's `llm_choice`, the
 * `preferred_label`, a `suggested_next` id, the highest `weight`, or `lexical` (the smallest target id
 * among unconditional edges of equal top weight). A lone eligible edge counts as `weight`.
 */
export type EdgeSelectionStep =
  | 'condition'
  | 'llm_choice'
  | 'preferred_label'
  | 'suggested_next'
  | 'weight'
  | 'lexical';

/** `selectEdge`, also saying which step chose the edge (for the `edge.selected` event). */
export function selectEdgeStep(
  input: EdgeSelectionInput,
): { edge: PipelineEdge; step: EdgeSelectionStep } | undefined {
  const { edges, outcome, context } = input;
  const matched = matchingConditionalEdges(edges, outcome, context)[0];
  if (matched) return { edge: matched, step: 'condition' };

  if (input.llmChoice !== undefined) {
    const choice = bestEdge(llmDecideCandidates(edges).filter((edge) => edge.target === input.llmChoice));
    if (choice) return { edge: choice, step: 'llm_choice' };
  }

  // `llm_decide` edges are the router's to choose; when it did not (no router, an unknown answer, a
  // failure) a declared fallback edge fires. With no other edge, they stay
  // eligible so the run does not end early.
  const plain = edges.filter((edge) => !isConditional(edge));
  const fallbacks = plain.filter((edge) => edge.attrs.llm_decide !== true);
  const unconditional = (fallbacks.length > 0 ? fallbacks : plain).sort((a, b) => a.index - b.index);
  if (unconditional.length === 0) return undefined;

  const preferred = outcome.preferred_label?.trim();
  if (preferred) {
    const wanted = normalizeLabel(preferred);
    const byLabel = unconditional.find(
      (edge) => edge.attrs.label && normalizeLabel(edge.attrs.label) === wanted,
    );
    if (byLabel) return { edge: byLabel, step: 'preferred_label' };
  }

  for (const id of outcome.suggested_next_ids ?? []) {
    const byId = unconditional.find((edge) => edge.target === id);
    if (byId) return { edge: byId, step: 'suggested_next' };
  }

  const [best, second] = [...unconditional].sort(compareEdges);
  if (!best) return undefined;
  const tied = second !== undefined && (second.attrs.weight ?? 0) === (best.attrs.weight ?? 0);
  return { edge: best, step: tied ? 'lexical' : 'weight' };
}
