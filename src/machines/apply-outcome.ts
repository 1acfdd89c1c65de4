import type { PipelineGraph, PipelineNode } from '../compiler/ir.js';
import type { Outcome } from '../compiler/outcome.js';
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
  // completedNodes and nodeOutcomes grow with the graph, not the run: copying them at every step would
  // make a step O(graph). They are append-only and owned by one actor, so they are updated in place
  // (every checkpoint serialises them synchronously, before the next step can touch them).
  const completedNodes = appendOnce(context.completedNodes, node.id);
  // Sparse: only goal gates and non-success outcomes are kept; a completed node absent here succeeded.
  const nodeOutcomes = context.nodeOutcomes;
  if (outcome.status === 'success' && !node.attrs.goal_gate) delete nodeOutcomes[node.id];
  else nodeOutcomes[node.id] = outcome.status;
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

const members = new WeakMap<string[], Set<string>>();

/** Append `id` unless present, in O(1): a Set shadows each list. */
function appendOnce(list: string[], id: string): string[] {
  let set = members.get(list);
  if (!set) {
    set = new Set(list);
    members.set(list, set);
  }
  if (!set.has(id)) {
    set.add(id);
    list.push(id);
  }
  return list;
}
