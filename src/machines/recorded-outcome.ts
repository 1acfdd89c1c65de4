import type { Outcome } from '../compiler/outcome.js';
import { retryPresetDelayMs } from '../compiler/routing.js';
import { definedFields } from '../shared/defined-fields.js';
import { type AppliedOutcome, applyOutcome } from './apply-outcome.js';
import { errorOutcome } from './error-outcome.js';
import type { GraphLookup } from './graph-lookup.js';
import type { HandlerActorOutput } from './invocation-runtime.js';
import type { NodeTree, PipelineMachineContext } from './machine-context.js';

/** How an invoked handler actor ended: its output (done event) or its error (error event). */
export type HandlerSettlement = { output: HandlerActorOutput | undefined } | { error: unknown };

/** What recording a settled handler's outcome assigns, and the outcome after retry accounting. */
export interface RecordedOutcome {
  assigned: Partial<PipelineMachineContext>;
  applied: AppliedOutcome;
  /** The outcome as the handler gave it, before retry accounting. */
  raw: Outcome;
  /** The working tree's snapshot after the visit. */
  tree?: NodeTree;
}

/**
 * The context update that records how a node's handler ended: a thrown error becomes RETRY (retryable)
 * or FAIL, an output is folded in with its logs and the router model's pick. A done event without
 * output (an actor that is not a node's handler) records nothing.
 */
export function recordedOutcome(
  lookup: GraphLookup,
  context: PipelineMachineContext,
  nodeId: string,
  settlement: HandlerSettlement,
): RecordedOutcome | undefined {
  let raw: Outcome;
  let llmChoice: string | undefined;
  let logs: HandlerActorOutput['logs'];
  let retryJitter: number | undefined;
  let tree: NodeTree | undefined;
  if ('error' in settlement) raw = errorOutcome(settlement.error);
  else if (settlement.output) ({ outcome: raw, llmChoice, logs, retryJitter, tree } = settlement.output);
  else return undefined;
  const node = lookup.node(nodeId);
  const applied = applyOutcome(context, lookup.graph, node, raw, logs);
  // The wait before a retry is decided with it: `node.retry` says how long, the backoff waits exactly that.
  const jitter = typeof retryJitter === 'number' && Number.isFinite(retryJitter) ? retryJitter : 0.5;
  const retryDelay = applied.retrying
    ? { retryDelayMs: retryPresetDelayMs(node.attrs.retry_policy, applied.attempt, () => jitter) }
    : {};
  return {
    assigned: {
      ...applied.context,
      ...retryDelay,
      ...(llmChoice ? { llmChoice } : {}),
      ...(tree ? treeAssigned(context, nodeId, tree) : {}),
    },
    applied,
    raw,
    ...definedFields({ tree }),
  };
}

/** The context's tree records after a node's snapshot: a new head, or the reason it was skipped. */
function treeAssigned(
  context: PipelineMachineContext,
  nodeId: string,
  tree: NodeTree,
): Pick<PipelineMachineContext, 'treeHead' | 'treeCommits' | 'treeSkipped'> {
  if (tree.commit)
    return {
      treeHead: tree.commit,
      treeCommits: { ...context.treeCommits, [nodeId]: tree.commit },
      ...(context.treeSkipped?.[nodeId] ? { treeSkipped: withoutKey(context.treeSkipped, nodeId) } : {}),
    };
  return tree.skipped ? { treeSkipped: { ...context.treeSkipped, [nodeId]: tree.skipped } } : {};
}

function withoutKey(record: Readonly<Record<string, string>>, key: string): Record<string, string> {
  const { [key]: _, ...rest } = record;
  return rest;
}
