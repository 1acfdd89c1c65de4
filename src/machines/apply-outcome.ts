import type { ContextLogEntry } from '../actors/pipeline-context.js';
import type { PipelineGraph, PipelineNode } from '../compiler/ir.js';
import type { Outcome, StageStatus } from '../compiler/outcome.js';
import { maxRetriesFor } from '../compiler/routing.js';
import type { PipelineMachineContext } from './machine-context.js';
import { setVisits, splitVisitCounts } from './visit-counts.js';

export interface AppliedOutcome {
  context: Partial<PipelineMachineContext>;
  /** The outcome after retry accounting (an exhausted RETRY becomes FAIL or PARTIAL_SUCCESS). */
  outcome: Outcome;
  retrying: boolean;
  attempt: number;
}

/** The context key holding the retries a node's current (or last) visit used (set by the engine). */
export const retryCountKey = (nodeId: string): string => `internal.retry_count.${nodeId}`;

/**
 * Fold a handler's outcome into the pipeline context.
 * RETRY outcomes (and retryable errors, already turned into RETRY) consume the node's retry budget.
 * `logs` (the handler's `appendLog` entries) are appended to the run's log whatever the outcome.
 */
export function applyOutcome(
  context: PipelineMachineContext,
  graph: PipelineGraph,
  node: PipelineNode,
  raw: Outcome,
  logs: readonly ContextLogEntry[] = [],
): AppliedOutcome {
  const used = context.nodeRetries[node.id] ?? 0;
  const attempt = used + 1;
  const appended = logs.length === 0 ? {} : { logs: [...context.logs, ...logs] };
  let outcome = raw;
  if (raw.status === 'retry') {
    if (used < maxRetriesFor(node, graph)) {
      return {
        context: {
          ...appended,
          // Seeds: a RETRY with attempts left increments `internal.retry_count.<node>`.
          values: { ...context.values, [retryCountKey(node.id)]: used + 1 },
          nodeRetries: { ...context.nodeRetries, [node.id]: used + 1 },
          lastOutcome: raw,
          retryPending: true,
        },
        outcome: raw,
        retrying: true,
        attempt,
      };
    }
    outcome = node.attrs.allow_partial
      ? {
          ...raw,
          status: 'partial_success',
          notes: raw.notes ?? `retries exhausted after ${attempt} attempts`,
        }
      : {
          ...raw,
          status: 'fail',
          failure_reason: raw.failure_reason ?? `retries exhausted after ${attempt} attempts`,
        };
  }

  // An update of `internal.visit_count.*` (a handler resetting a counter, a branch's visits) is a count.
  const updates = splitVisitCounts(outcome.context_updates ?? {});
  const values: Record<string, unknown> = { ...context.values, ...updates.values };
  const visits = setVisits(context.visits, updates.visits);
  values.outcome = outcome.status;
  values.preferred_label = outcome.preferred_label ?? '';
  values.current_node = node.id;
  // Written once a node has retried: afterwards it tells the retries of the node's latest visit (0 too).
  if (used > 0 || Object.hasOwn(values, retryCountKey(node.id))) values[retryCountKey(node.id)] = used;
  if (outcome.status === 'fail') {
    values._last_error = outcome.failure_reason ?? 'failed';
    values._failed_node = node.id;
  }
  const { [node.id]: _finished, ...nodeRetries } = context.nodeRetries;
  // The context is replaced, never mutated: snapshots an inspector or subscriber kept must not change
  // after the fact. Unchanged collections keep their identity (structural sharing).
  const completedNodes = context.completedNodes.includes(node.id)
    ? context.completedNodes
    : [...context.completedNodes, node.id];
  // Sparse: only goal gates and non-success outcomes are kept; a completed node absent here succeeded.
  const nodeOutcomes = sparseOutcomes(context.nodeOutcomes, node, outcome.status);
  let failedNodes = context.failedNodes;
  if (outcome.status === 'fail' && !failedNodes.includes(node.id)) failedNodes = [...failedNodes, node.id];
  return {
    context: {
      ...appended,
      values,
      visits,
      completedNodes,
      nodeOutcomes,
      nodeRetries,
      lastOutcome: outcome,
      lastNode: node.id,
      retryPending: false,
      failedNodes,
    },
    outcome,
    retrying: false,
    attempt,
  };
}

function sparseOutcomes(
  outcomes: Record<string, StageStatus>,
  node: PipelineNode,
  status: StageStatus,
): Record<string, StageStatus> {
  if (status === 'success' && !node.attrs.goal_gate) {
    if (!Object.hasOwn(outcomes, node.id)) return outcomes;
    const { [node.id]: _dropped, ...rest } = outcomes;
    return rest;
  }
  return outcomes[node.id] === status ? outcomes : { ...outcomes, [node.id]: status };
}
