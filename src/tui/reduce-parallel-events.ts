import type { PipelineEventOf } from '../shared/pipeline-event.js';
import type { NodeStatus, RunState } from './run-state.js';
import { NODE_STATUS, patchNode, type RunStateReducers } from './run-state-reducer.js';

function branchChanged(
  state: RunState,
  event: PipelineEventOf<'parallel.branch.start'> | PipelineEventOf<'parallel.branch.complete'>,
): RunState {
  const status: NodeStatus =
    event.kind === 'parallel.branch.start'
      ? 'running'
      : event.data.cancelled
        ? 'skipped'
        : (NODE_STATUS[event.data.status] ?? 'success');
  return patchNode(state, event.node_id, (node) => ({
    ...node,
    branches: (node.branches ?? []).map((b) => (b.id === event.data.branch ? { ...b, status } : b)),
  }));
}

/** A parallel node's branches, each marked as it starts and finishes. */
export const parallelReducers: RunStateReducers = {
  'parallel.start': (state, event) =>
    patchNode(state, event.node_id, (node) => ({
      ...node,
      branches: event.data.branches.map((b) => ({ id: b, status: 'pending' as NodeStatus })),
    })),
  'parallel.branch.start': branchChanged,
  'parallel.branch.complete': branchChanged,
};
