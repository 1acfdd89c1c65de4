import type { PipelineEvent } from '../shared/pipeline-event.js';

/** What the web view and the SVG colour a node by. Branch and child events do not colour top-level nodes. */
export type NodeStatus = 'running' | 'success' | 'partial_success' | 'retry' | 'fail' | 'skipped' | 'waiting';

/** Fold one event into the per-node status map (pure: returns the same map, updated). */
export function applyNodeStatus(
  statuses: Map<string, NodeStatus>,
  event: PipelineEvent,
): Map<string, NodeStatus> {
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

export const NODE_STATUS_FILL: Readonly<Record<NodeStatus, string>> = {
  running: '#fde68a',
  waiting: '#bfdbfe',
  success: '#bbf7d0',
  partial_success: '#fef08a',
  retry: '#fed7aa',
  fail: '#fecaca',
  skipped: '#e5e7eb',
};
