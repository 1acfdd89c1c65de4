import type { PipelineGraph, PipelineNode } from '../compiler/ir.js';
import type { Outcome, StageStatus } from '../compiler/outcome.js';
import { maxRetriesFor } from '../compiler/routing.js';
import type { PipelineMachineContext } from './pipeline-context.js';

export interface AppliedOutcome {
  context: Partial<PipelineMachineContext>;
  /** The outcome after retry accounting (an exhausted RETRY becomes FAIL or PARTIAL_SUCCESS). */
  outcome: Outcome;
  retrying: boolean;
  attempt: number;
}

/**
 * Fold a handler's outcome into the pipeline context (concepts §4: update context, then route).
 * RETRY outcomes (and retryable errors, already turned into RETRY) consume the node's retry budget.
 */
export function applyOutcome(
  context: PipelineMachineContext,
  graph: PipelineGraph,
  node: PipelineNode,
  raw: Outcome,
): AppliedOutcome {
  const used = context.nodeRetries[node.id] ?? 0;
  const attempt = used + 1;
  let outcome = raw;
  if (raw.status === 'retry') {
    if (used < maxRetriesFor(node, graph)) {
      return {
        context: {
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

  const values: Record<string, unknown> = { ...context.values, ...(outcome.context_updates ?? {}) };
  values.outcome = outcome.status;
  values.preferred_label = outcome.preferred_label ?? '';
  values.current_node = node.id;
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
      values,
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
