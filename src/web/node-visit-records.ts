import type { PipelineEvent } from '../shared/pipeline-event.js';
import { buildTranscript, nodeCost, type TranscriptEntry } from './run-transcript.js';

/** What one visit of a node did, from the run's events: what it was asked, said, called and cost. */
export interface VisitRecord {
  /** 1-based, as the timeline counts visits. */
  visit: number;
  /** What the agent was given (its prompt and follow-ups), in order. */
  prompts: string[];
  /** The agent's words and tool calls, as the transcript shows them. */
  entries: TranscriptEntry[];
  cost: ReturnType<typeof nodeCost>;
}

const nested = (event: PipelineEvent): boolean =>
  event.data['branch'] !== undefined || event.data['parent'] !== undefined;

/**
 * The node's events cut into its visits: a `node.start` while a visit is open (a retry, a gate's run
 * taken up again) continues it; after `node.complete` the next one begins another, as in the timeline.
 */
function visitEvents(events: readonly PipelineEvent[], node: string): PipelineEvent[][] {
  const visits: PipelineEvent[][] = [];
  let open = false;
  for (const event of events) {
    if (event.node_id !== node || nested(event)) continue;
    if (event.kind === 'node.start' && !open) {
      visits.push([]);
      open = true;
    }
    visits.at(-1)?.push(event);
    if (event.kind === 'node.complete') open = false;
  }
  return visits;
}

/** Every visit of `node`, oldest first. Pure, folded again as events arrive. */
export function nodeVisitRecords(events: readonly PipelineEvent[], node: string): VisitRecord[] {
  return visitEvents(events, node).map((mine, i) => ({
    visit: i + 1,
    prompts: mine.flatMap((e) => (e.kind === 'agent.user_input' ? [e.data.text] : [])),
    entries: buildTranscript(mine),
    cost: nodeCost(mine, node),
  }));
}
