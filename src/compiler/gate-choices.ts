import { normalizeLabel, parseAcceleratorKey } from './accelerator.js';
import type { PipelineEdge, PipelineNode } from './ir.js';

/** One choice of a human gate: an outgoing edge, as a person picks it. */
export interface GateChoice {
  /** Accelerator key, e.g. `A` for `[A] Approve`. */
  key: string;
  label: string;
  /** The edge target this choice leads to. */
  target?: string;
}

/**
 * A gate's choices: one per outgoing edge, in declaration order — two edges to the same
 * node with different labels are two choices. The label is the edge's, else its target id; the key
 * comes from the label's accelerator.
 */
export function gateChoices(node: Pick<PipelineNode, 'id'>, edges: readonly PipelineEdge[]): GateChoice[] {
  return edges
    .filter((edge) => edge.source === node.id)
    .map((edge) => {
      const label = edge.attrs.label || edge.target;
      return { key: parseAcceleratorKey(label).key, label, target: edge.target };
    });
}

/**
 * The choice a typed or scripted answer names: by accelerator key, by label (with or without its
 * `[K]` prefix), or by edge target, case-insensitively — in that order, so `A` is a key before a label.
 */
export function findChoice<T extends GateChoice>(choices: readonly T[], answer: string): T | undefined {
  const wanted = answer.trim().toLowerCase();
  if (wanted === '') return undefined;
  return (
    choices.find((choice) => choice.key.toLowerCase() === wanted) ??
    choices.find(
      (choice) => normalizeLabel(choice.label) === wanted || choice.label.toLowerCase() === wanted,
    ) ??
    choices.find((choice) => choice.target?.toLowerCase() === wanted)
  );
}

/**
 * The choice free text follows on a gate with `human.freeform`: the choice it names (key, label or
 * target), or the only one when it is `true`. Unset, `false` or a name matching nothing: no free text.
 */
export function freeTextChoice<T extends GateChoice>(
  value: string | undefined,
  choices: readonly T[],
): T | undefined {
  const wanted = value?.trim().toLowerCase();
  if (wanted === undefined || wanted === '' || wanted === 'false') return undefined;
  if (wanted === 'true') return choices.length === 1 ? choices[0] : undefined;
  return findChoice(choices, wanted);
}
