import type { PipelineEdge } from '../compiler/ir.js';
import { isConditional } from '../compiler/routing/select-edge.js';
import type { EventData } from '../shared/pipeline-event.js';

/**
 * The engine's own routing decision (`edge.selected`) in words: which step of edge selection chose
 * the edge, or what named the target of a jump. `edges` are the source node's outgoing edges (to say
 * "only edge" rather than "highest weight" when there was no choice).
 */
export function describeRoute(data: EventData<'edge.selected'>, edges: readonly PipelineEdge[]): string {
  const { from } = data;
  switch (data.step) {
    case 'condition':
      return `condition ${data.condition ?? ''}`;
    case 'llm_choice':
      return 'router model choice';
    case 'preferred_label':
      return `preferred label "${data.label ?? ''}"`;
    case 'suggested_next':
      return 'suggested next node';
    case 'weight':
      return edges.filter((edge) => !isConditional(edge)).length <= 1
        ? 'only edge'
        : `highest weight (${data.weight ?? 0})`;
    case 'lexical':
      return 'first by target id among equal weights';
    case 'next_node':
      return `next_node from ${from}`;
    case 'retry_target':
      return `retry target of ${from}`;
    case 'fallback_retry_target':
      return `fallback retry target of ${from}`;
    case 'goal_gate':
      return 'goal gate unsatisfied';
    default:
      return data.step || 'routed';
  }
}
