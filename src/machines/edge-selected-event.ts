import type { PipelineEdge } from '../compiler/ir.js';
import type { RoutingStep } from '../compiler/routing.js';
import { definedFields } from '../shared/defined-fields.js';
import type { EventData } from '../shared/pipeline-event.js';

/** How a jump without an edge was decided. */
export type JumpStep = 'retry_target' | 'fallback_retry_target' | 'next_node' | 'goal_gate';

/**
 * The data of `edge.selected`: the routing decision after a node, as the engine made it (so viewers
 * need not reconstruct it). `step` is the edge selection step that chose the edge, or for a jump to
 * a node without an edge (`jump: true`) what named the target.
 */
export function edgeSelectedData(
  from: string,
  choice: { edge: PipelineEdge; step: RoutingStep } | { target: string; step: JumpStep },
): EventData<'edge.selected'> {
  if ('edge' in choice) {
    const { edge, step } = choice;
    const condition = edge.attrs.condition?.trim();
    return {
      from,
      to: edge.target,
      step,
      edge_index: edge.index,
      ...(edge.attrs.label ? { label: edge.attrs.label } : {}),
      ...(condition ? { condition } : {}),
      ...definedFields({ weight: edge.attrs.weight }),
      ...(edge.attrs.loop_restart ? { loop_restart: true } : {}),
    };
  }
  return { from, to: choice.target, step: choice.step, jump: true };
}
