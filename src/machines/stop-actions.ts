import { definedFields } from '../shared/defined-fields.js';
import type { NodeParams } from './action-params.js';
import type { PipelineMachineContext } from './machine-context.js';
import { checkpoint, type Enqueue, evt, pipelineAction } from './pipeline-action.js';

type Failure = { node?: string; reason: string };

/** The failure a failing route carries; a node that routes nowhere else fails with no route out. */
function failureOf(context: PipelineMachineContext, nodeId: string): Failure {
  const route = context.route;
  return route?.kind === 'fail' || route?.kind === 'goal_gate_failed'
    ? route.failure
    : { node: nodeId, reason: `no route out of ${nodeId}` };
}

function endRun(
  enqueue: Enqueue,
  context: PipelineMachineContext,
  nodeId: string,
  status: 'completed' | 'failed',
  failure?: Failure,
): void {
  enqueue.assign({ stoppedAt: nodeId, ...definedFields({ failure }) });
  const next = { ...context, stoppedAt: nodeId, ...definedFields({ failure }) };
  if (!context.branch) {
    if (status === 'completed') enqueue.emit(evt('pipeline.complete', treeOf(context), nodeId));
    else
      enqueue.emit(
        evt(
          'pipeline.error',
          { error: failure?.reason ?? 'failed', ...treeOf(context) },
          failure?.node ?? nodeId,
        ),
      );
  }
  enqueue.emit(checkpoint(next, nodeId, status));
}

const failAtNode = pipelineAction(({ context, enqueue }, p: NodeParams) =>
  endRun(enqueue, context, p.node, 'failed', failureOf(context, p.node)),
);

/** How a run ends: completed, failed (several ways), or stopped to resume later (paused, cancelled). */
export const stopActions = {
  failGoalGate: failAtNode,
  completeRun: pipelineAction(({ context, enqueue }, p: NodeParams) =>
    endRun(enqueue, context, p.node, 'completed'),
  ),
  failRun: failAtNode,
  failStepLimit: pipelineAction(({ context, enqueue }, p: NodeParams) => {
    const reason = `step limit of ${context.maxSteps} reached before ${p.node} (raise it with --max-steps)`;
    endRun(enqueue, context, p.node, 'failed', { node: p.node, reason });
  }),
  failUnknownJump: pipelineAction(({ context, enqueue }) => {
    const reason = `cannot continue at unknown node "${context.jumpTo ?? ''}"`;
    endRun(enqueue, context, context.lastNode ?? '', 'failed', { reason });
  }),
  pauseAt: pipelineAction(({ context, enqueue }, p: NodeParams) => {
    enqueue.assign({ stoppedAt: p.node });
    enqueue.emit(evt('pipeline.paused', { resume_at: p.node, ...treeOf(context) }, p.node));
    enqueue.emit(checkpoint(context, p.node, 'paused'));
  }),
  stopBranchAt: pipelineAction(({ enqueue }, p: NodeParams) => enqueue.assign({ stoppedAt: p.node })),
  requestPause: pipelineAction(({ enqueue }) => enqueue.assign({ pauseRequested: true })),
  // A manager loop steers its child: the next node the child runs sees the message in its context.
  steer: pipelineAction(({ context, event, enqueue }) => {
    if (event.type === 'STEER')
      enqueue.assign({ values: { ...context.values, 'manager.steer': event.message } });
  }),
  pauseNow: pipelineAction(({ context, event, enqueue }) => {
    if (event.type !== 'PAUSE_NOW') return;
    const at = context.lastNode ?? '';
    const pausedFor = { reason: event.reason, message: event.message };
    enqueue.assign({ stoppedAt: at, pausedFor });
    enqueue.emit(evt('pipeline.paused', { resume_at: at, ...pausedFor, ...treeOf(context) }, at));
    enqueue.emit(checkpoint(context, at, 'paused'));
  }),
  cancelRun: pipelineAction(({ context, event, enqueue }) => {
    const at = context.lastNode ?? '';
    const by = event.type === 'CANCEL' && event.by !== undefined ? { cancelled_by: event.by } : {};
    enqueue.assign({ stoppedAt: at, failure: { node: at, reason: 'cancelled' } });
    enqueue.emit(evt('pipeline.cancelled', { resume_at: at, ...treeOf(context), ...by }, at));
    enqueue.emit(checkpoint(context, at, 'cancelled'));
  }),
};

/** The run's newest working-tree snapshot, for the events that say where the run stopped. */
function treeOf(context: PipelineMachineContext): { commit?: string } {
  return context.treeHead ? { commit: context.treeHead } : {};
}
