import type { Outcome } from '../compiler/outcome.js';
import { retryDelayMs } from '../compiler/routing.js';
import { type AppliedOutcome, applyOutcome } from './apply-outcome.js';
import { errorOutcome } from './error-outcome.js';
import type { HandlerActorOutput } from './invocation-runtime.js';
import type { PipelineMachineContext } from './pipeline-context.js';
import type { GraphLookup } from './pipeline-runtime.js';

/**
 * How an invoked handler actor ended: its output (done event) or its error (error event). decorateConfig
 * makes one per event and hands the same object to every guard and action of the event's transitions.
 */
export type HandlerSettlement = { output: HandlerActorOutput | undefined } | { error: unknown };

/** A node whose handler settled, as recording its outcome leaves the pipeline. */
export interface SettledNode {
  /** The context once the outcome is recorded: what routing reads. */
  context: PipelineMachineContext;
  /** Absent for a done event without output: then nothing is recorded. */
  recorded?: {
    /** What recording assigns to the context. */
    assigned: Partial<PipelineMachineContext>;
    applied: AppliedOutcome;
    /** The outcome as the handler gave it, before retry accounting. */
    raw: Outcome;
  };
}

const settledBy = new WeakMap<HandlerSettlement, { from: PipelineMachineContext; node: SettledNode }>();

/**
 * The context a node's routing guards decide on, computed once per settlement and context. The guards of
 * the handler's `onDone`/`onError` transitions run before any of their actions, so they read the outcome
 * as it will be recorded; the recording action (first in every such transition) sees the same context
 * and assigns exactly that. The actions after it read the context they are given: recorded by then.
 * Keyed by the context too: one event object can be evaluated against several snapshots (an embedder's
 * `transition()` or `snapshot.can()`), and each must be settled from its own.
 */
export function settledNode(
  lookup: GraphLookup,
  context: PipelineMachineContext,
  nodeId: string,
  settlement: HandlerSettlement,
): SettledNode {
  const memo = settledBy.get(settlement);
  if (memo?.from === context) return memo.node;
  const node = settle(lookup, context, nodeId, settlement);
  settledBy.set(settlement, { from: context, node });
  return node;
}

function settle(
  lookup: GraphLookup,
  context: PipelineMachineContext,
  nodeId: string,
  settlement: HandlerSettlement,
): SettledNode {
  let raw: Outcome;
  let llmChoice: string | undefined;
  let logs: HandlerActorOutput['logs'];
  let retryJitter: number | undefined;
  if ('error' in settlement) raw = errorOutcome(settlement.error);
  else if (settlement.output) ({ outcome: raw, llmChoice, logs, retryJitter } = settlement.output);
  else return { context };
  const node = lookup.node(nodeId);
  const applied = applyOutcome(context, lookup.graph, node, raw, logs);
  // The wait before the retry is decided with it: `node.retry` says how long, the backoff waits exactly that.
  const jitter = typeof retryJitter === 'number' && Number.isFinite(retryJitter) ? retryJitter : 0.5;
  const retryDelay = applied.retrying
    ? { retryDelayMs: retryDelayMs(node.attrs.retry_policy, applied.attempt, () => jitter) }
    : {};
  const assigned = { ...applied.context, ...retryDelay, ...(llmChoice ? { llmChoice } : {}) };
  return { context: { ...context, ...assigned }, recorded: { assigned, applied, raw } };
}
