import type { PipelineEvent } from '../shared/pipeline-event.js';
import type { RunStatus } from '../shared/run-view-json.js';

/**
 * What the web view and the SVG colour a node by. Branch and child events do not colour top-level nodes.
 * `cancelled` and `interrupted`: the node was under way when its run stopped (its clock stops there).
 */
export type NodeStatus =
  | 'running'
  | 'success'
  | 'partial_success'
  | 'retry'
  | 'fail'
  | 'skipped'
  | 'waiting'
  | 'cancelled'
  | 'interrupted';

/** Under way: what a stopped run's node cannot still be. */
const UNDER_WAY: ReadonlySet<NodeStatus> = new Set(['running', 'retry']);

/** Fold one event into the per-node status map (pure: returns the same map, updated). */
export function applyNodeStatus(
  statuses: Map<string, NodeStatus>,
  event: PipelineEvent,
): Map<string, NodeStatus> {
  if (
    event.kind === 'pipeline.cancelled' ||
    event.kind === 'pipeline.paused' ||
    event.kind === 'pipeline.error'
  ) {
    // A node at a gate stays `waiting`: a worker releases its run there with a cancel (settled by the run's status).
    if (event.data.branch !== undefined || event.data.parent !== undefined) return statuses;
    const stopped = event.kind === 'pipeline.cancelled' ? 'cancelled' : 'interrupted';
    for (const [node, status] of statuses) if (UNDER_WAY.has(status)) statuses.set(node, stopped);
    return statuses;
  }
  const node = event.node_id;
  if (!node || event.data.branch !== undefined || event.data.parent !== undefined) return statuses;
  switch (event.kind) {
    case 'node.start':
      statuses.set(node, 'running');
      break;
    case 'interview.start':
      statuses.set(node, 'waiting');
      break;
    case 'interview.complete':
      statuses.set(node, 'running');
      break;
    case 'node.retry':
      statuses.set(node, 'retry');
      break;
    case 'node.complete':
      statuses.set(node, event.data.status);
      break;
  }
  return statuses;
}

/** A run at a gate still moves: a fan-out's node runs on while one branch waits for a person. */
const MOVING: ReadonlySet<RunStatus> = new Set(['queued', 'running', 'waiting']);

/**
 * The nodes' statuses as the run's own status makes them true: once it stopped (cancelled, failed,
 * paused, or interrupted by a crash that left no event), no node is still running; a node at a gate
 * waits only while the run does. Pure: returns a new record.
 */
export function settleNodeStatuses(
  statuses: Readonly<Record<string, NodeStatus>>,
  run: RunStatus,
): Record<string, NodeStatus> {
  if (MOVING.has(run)) return { ...statuses };
  const stopped: NodeStatus = run === 'cancelled' ? 'cancelled' : 'interrupted';
  const settled: Record<string, NodeStatus> = {};
  for (const [node, status] of Object.entries(statuses)) {
    const open = UNDER_WAY.has(status) || status === 'waiting';
    settled[node] = open ? stopped : status;
  }
  return settled;
}

export const NODE_STATUS_FILL: Readonly<Record<NodeStatus, string>> = {
  running: '#fde68a',
  waiting: '#bfdbfe',
  success: '#bbf7d0',
  partial_success: '#fef08a',
  retry: '#fed7aa',
  fail: '#fecaca',
  skipped: '#e5e7eb',
  cancelled: '#e5e7eb',
  interrupted: '#e9d5ff',
};
