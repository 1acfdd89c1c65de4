import type { EdgeParams, JumpParams, NodeParams } from './action-params.js';
import { edgeSelectedData } from './edge-selected-event.js';
import type { GraphLookup } from './graph-lookup.js';
import { checkpoint, evt, pipelineAction } from './pipeline-action.js';

/** Following the route a node decided: along an edge, back to a loop's start, or a jump. */
export function routeActions(lookup: GraphLookup) {
  return {
    traverseEdge: pipelineAction(({ context, enqueue }, p: EdgeParams) => {
      const edge = lookup.edge(p.edge);
      const route = context.route;
      enqueue.assign({ arrivedBy: p.edge });
      const step = route?.kind === 'edge' ? route.step : 'condition';
      enqueue.emit(evt('edge.selected', edgeSelectedData(p.node, { edge, step }), p.node));
      enqueue.emit(checkpoint({ ...context, arrivedBy: p.edge }, edge.target));
    }),
    restartLoop: pipelineAction(({ context, enqueue }, p: EdgeParams) => {
      const edge = lookup.edge(p.edge);
      const restarts = context.restarts + 1;
      enqueue.assign({ completedNodes: [], nodeOutcomes: {}, restarts });
      enqueue.emit(evt('loop.restart', { target: edge.target, restart: restarts }, p.node));
      const next = { ...context, completedNodes: [], nodeOutcomes: {}, restarts, arrivedBy: p.edge };
      enqueue.emit(checkpoint(next, edge.target));
    }),
    jumpFromNode: pipelineAction(({ context, enqueue }, p: NodeParams) => {
      const route = context.route;
      if (route?.kind !== 'jump' && route?.kind !== 'retry_target') return;
      const reason = route.kind === 'jump' ? `next_node from ${p.node}` : `retry target of ${p.node}`;
      enqueue.assign({ jumpTo: route.target, arrivedBy: undefined });
      const how = route.kind === 'jump' ? 'next_node' : route.via;
      enqueue.emit(
        evt('edge.selected', edgeSelectedData(p.node, { target: route.target, step: how }), p.node),
      );
      enqueue.emit(evt('node.jump', { target: route.target, reason }, p.node));
      enqueue.emit(checkpoint({ ...context, arrivedBy: undefined }, route.target));
    }),
    jumpToRetryTarget: pipelineAction(({ context, enqueue }, p: JumpParams) => {
      const route = context.route;
      const how = route?.kind === 'retry_target' ? route.via : 'retry_target';
      enqueue.assign({ arrivedBy: undefined });
      enqueue.emit(evt('edge.selected', edgeSelectedData(p.node, { target: p.target, step: how }), p.node));
      enqueue.emit(evt('node.jump', { target: p.target, reason: `retry target of ${p.node}` }, p.node));
      enqueue.emit(checkpoint({ ...context, arrivedBy: undefined }, p.target));
    }),
    jumpForGoalGate: pipelineAction(({ context, enqueue }, p: JumpParams) => {
      const route = context.route;
      const gate = route?.kind === 'goal_gate_retry' ? route.gate : p.node;
      enqueue.assign({ arrivedBy: undefined });
      enqueue.emit(
        evt('edge.selected', edgeSelectedData(p.node, { target: p.target, step: 'goal_gate' }), p.node),
      );
      enqueue.emit(evt('goal_gate.retry', { target: p.target }, gate));
      enqueue.emit(checkpoint({ ...context, arrivedBy: undefined }, p.target));
    }),
  };
}
