import { useMemo } from 'react';
import { applyNodeStatus, type NodeStatus, settleNodeStatuses } from '../server/node-statuses.js';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import type { RunStatus } from '../shared/run-view-json.js';
import { buildTimeline } from './run-timeline.js';
import { buildTranscript } from './run-transcript.js';
import { takenEdges } from './taken-edges.js';

/**
 * What a run page shows, folded from the run's events and settled by its status (a stopped run has no
 * node running): each node's status, the timeline's visits and each node's count, the edges taken, the
 * agent transcript. Each fold is redone only when the events or the status change.
 */
export function useRunFolds(events: readonly PipelineEvent[], status: RunStatus) {
  const statuses = useMemo(() => {
    const map = new Map<string, NodeStatus>();
    for (const e of events) applyNodeStatus(map, e);
    return settleNodeStatuses(Object.fromEntries(map), status);
  }, [events, status]);
  const visits = useMemo(() => buildTimeline(events, status), [events, status]);
  const visitCounts = useMemo(() => {
    const counts = new Map<string, number>();
    for (const v of visits) counts.set(v.node, Math.max(counts.get(v.node) ?? 0, v.visit));
    return counts;
  }, [visits]);
  const taken = useMemo(() => takenEdges(events), [events]);
  const transcript = useMemo(() => buildTranscript(events), [events]);
  return { statuses, visits, visitCounts, taken, transcript };
}
