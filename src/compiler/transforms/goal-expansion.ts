import { definedFields } from '../../shared/defined-fields.js';
import type { PipelineGraph } from '../ir.js';
import { expandedTextBytes, expansionTooLarge, MAX_EXPANDED_TEXT_BYTES } from './expansion-limit.js';
import type { Transform, TransformContext } from './transform.js';

/** `$goal` as a whole word: `$goal_x` and `$goals` are other variables and stay as written. */
const GOAL_VARIABLE = /\$goal(?![A-Za-z0-9_])/g;

export function expandGoal(text: string, goal: string): string {
  // A function replacement, so `$&` or `$1` inside the goal are not treated as patterns.
  return text.replace(GOAL_VARIABLE, () => goal);
}

/**
 * Expands `$goal` in node prompts and labels (docs/semantics.md S8). The goal is `ctx.goal` (the `--goal`
 * flag) when given, which also replaces the graph's `goal` attribute; else the graph's goal; else "".
 * Counted first: past `MAX_EXPANDED_TEXT_BYTES` nothing is expanded and the error says so.
 */
export const goalExpansionTransform: Transform = {
  name: 'goal-expansion',
  apply(graph: PipelineGraph, ctx: TransformContext): PipelineGraph {
    const goal = ctx.goal ?? graph.attrs.goal ?? '';
    const attrs = ctx.goal !== undefined ? { ...graph.attrs, goal: ctx.goal } : graph.attrs;
    const bytes = expandedTextBytes(graph, GOAL_VARIABLE, () => goal);
    if (bytes > MAX_EXPANDED_TEXT_BYTES) {
      ctx.diagnostics.push(expansionTooLarge('$goal', bytes));
      return { ...graph, attrs };
    }
    const nodes = graph.nodes.map((node) => {
      const prompt = node.attrs.prompt === undefined ? undefined : expandGoal(node.attrs.prompt, goal);
      const label = node.attrs.label === undefined ? undefined : expandGoal(node.attrs.label, goal);
      if (prompt === node.attrs.prompt && label === node.attrs.label) return node;
      return {
        ...node,
        attrs: {
          ...node.attrs,
          ...definedFields({ prompt, label }),
        },
      };
    });
    return { ...graph, attrs, nodes };
  },
};
