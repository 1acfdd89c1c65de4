import type { PipelineEvent } from '../shared/pipeline-event.js';

/** How a drawn edge is named: Graphviz titles an edge `from->to`. */
export const edgeKey = (from: string, to: string): string => `${from}->${to}`;

/** The edges the run took between its own nodes (`edge.selected`; a branch's or child's are not drawn). */
export function takenEdges(events: readonly PipelineEvent[]): Set<string> {
  const taken = new Set<string>();
  for (const event of events) {
    if (event.kind !== 'edge.selected') continue;
    if (event.data.branch !== undefined || event.data.parent !== undefined || event.data.jump) continue;
    taken.add(edgeKey(event.data.from, event.data.to));
  }
  return taken;
}
