import type { PipelineEvent } from '../shared/pipeline-event.js';

/** One visit of a top-level node: when it started, how long it took, how it ended, its retries. */
export interface NodeVisit {
  node: string;
  /** 1-based count of this node's visits (a loop visits a node again). */
  visit: number;
  startedAt: string;
  endedAt?: string;
  durationMs?: number;
  /** `running` until it ends; then the outcome's status. */
  status: string;
  /** Attempts beyond the first within this visit. */
  retries: number;
  waitedForPerson: boolean;
}

const nested = (event: PipelineEvent): boolean =>
  event.data['branch'] !== undefined || event.data['parent'] !== undefined;

/**
 * The node visits of a run, in the order they started, from its events. A retry is the same visit
 * (`node.retry` then another `node.start` with a higher attempt); a node entered again after others
 * is a new visit. Branch and child-pipeline events are not top-level visits.
 */
export function buildTimeline(events: readonly PipelineEvent[]): NodeVisit[] {
  const visits: NodeVisit[] = [];
  const open = new Map<string, NodeVisit>();
  const counts = new Map<string, number>();
  for (const event of events) {
    const node = event.node_id;
    if (!node || nested(event)) continue;
    switch (event.kind) {
      case 'node.start': {
        const current = open.get(node);
        if (current?.status === 'retrying') {
          current.status = 'running';
          break;
        }
        const visit = (counts.get(node) ?? 0) + 1;
        counts.set(node, visit);
        const entry: NodeVisit = {
          node,
          visit,
          startedAt: event.timestamp,
          status: 'running',
          retries: 0,
          waitedForPerson: false,
        };
        visits.push(entry);
        open.set(node, entry);
        break;
      }
      case 'node.retry': {
        const current = open.get(node);
        if (current) {
          current.retries += 1;
          current.status = 'retrying';
        }
        break;
      }
      case 'interview.start': {
        const current = open.get(node);
        if (current) current.waitedForPerson = true;
        break;
      }
      case 'node.complete': {
        const current = open.get(node);
        if (!current) break;
        current.status = typeof event.data['status'] === 'string' ? event.data['status'] : 'success';
        current.endedAt = event.timestamp;
        current.durationMs = Math.max(0, Date.parse(event.timestamp) - Date.parse(current.startedAt));
        open.delete(node);
        break;
      }
    }
  }
  return visits;
}

/** A run's pipeline ended (finalized or stopped): visits still open did not finish. */
export function isRunEnded(events: readonly PipelineEvent[]): boolean {
  return events.some((e) => e.kind === 'pipeline.finalize');
}
