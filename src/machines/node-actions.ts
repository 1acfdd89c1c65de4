import { resolveFidelity } from '../compiler/fidelity.js';
import { definedFields } from '../shared/defined-fields.js';
import type { NodeParams, RecordParams } from './action-params.js';
import type { GraphLookup } from './graph-lookup.js';
import type { PipelineMachineContext } from './machine-context.js';
import { checkpoint, type Enqueue, evt, pipelineAction } from './pipeline-action.js';
import { recordedOutcome } from './recorded-outcome.js';
import { decideRoute } from './route.js';
import { countVisit } from './visit-counts.js';

function startNode(
  lookup: GraphLookup,
  enqueue: Enqueue,
  context: PipelineMachineContext,
  p: NodeParams,
): void {
  const node = lookup.node(p.node);
  const attempt = (context.nodeRetries[p.node] ?? 0) + 1;
  const edge = context.arrivedBy !== undefined ? lookup.edge(context.arrivedBy) : undefined;
  const resolved = resolveFidelity({ ...definedFields({ edge }), node, graph: lookup.graph });
  // The first `full` node after a resume sees `summary:high` once: its thread is gone.
  const degrade = resolved === 'full' && context.degradeFullFidelity;
  enqueue.assign({
    fidelity: degrade ? 'summary:high' : resolved,
    ...(degrade ? { degradeFullFidelity: false } : {}),
    steps: context.steps + 1,
    lastNode: p.node,
    jumpTo: undefined,
    llmChoice: undefined,
    route: undefined,
    values: { ...context.values, current_node: p.node },
    // A new visit (not a retry of this one) counts toward max_visits.
    ...(attempt === 1 ? { visits: countVisit(context.visits, p.node) } : {}),
  });
  enqueue.emit(evt('node.start', { attempt, handler: node.handler, step: context.steps + 1 }, p.node));
}

function record(
  lookup: GraphLookup,
  enqueue: Enqueue,
  context: PipelineMachineContext,
  p: RecordParams,
): void {
  const recorded = p.settlement && recordedOutcome(lookup, context, p.node, p.settlement);
  if (!recorded) return;
  const { assigned, applied, raw, tree } = recorded;
  enqueue.assign(assigned);
  if (applied.retrying) {
    enqueue.emit(
      evt(
        'node.retry',
        {
          attempt: applied.attempt,
          reason: raw.failure_reason ?? raw.notes ?? 'retry requested',
          ...definedFields({ delay_ms: assigned.retryDelayMs }),
        },
        p.node,
      ),
    );
    enqueue.emit(checkpoint({ ...context, ...applied.context }, p.node));
    return;
  }
  const o = applied.outcome;
  enqueue.emit(
    evt(
      'node.complete',
      {
        status: o.status,
        ...(o.preferred_label ? { preferred_label: o.preferred_label } : {}),
        ...(o.failure_reason ? { failure_reason: o.failure_reason } : {}),
        ...(o.notes ? { notes: o.notes } : {}),
        ...(tree?.commit ? { commit: tree.commit } : {}),
        ...(tree?.skipped ? { tree_skipped: tree.skipped } : {}),
        ...(tree?.omitted && tree.omitted.length > 0 ? { tree_omitted: tree.omitted } : {}),
      },
      p.node,
    ),
  );
}

/** A node's visit: started, its handler's outcome recorded, then the route out decided. */
export function nodeActions(lookup: GraphLookup) {
  // The handler settled: record its outcome. Routing happens after, in the node's `route` state.
  const recordSettlement = pipelineAction(({ context, enqueue }, p: RecordParams) =>
    record(lookup, enqueue, context, p),
  );
  return {
    startNode: pipelineAction(({ context, enqueue }, p: NodeParams) =>
      startNode(lookup, enqueue, context, p),
    ),
    recordOutcome: recordSettlement,
    recordError: recordSettlement,
    decideRoute: pipelineAction(({ context, enqueue }, p: NodeParams) =>
      enqueue.assign({ route: decideRoute(lookup, context, p.node) }),
    ),
  };
}
