import { type RetryBackoffLogic, retryBackoffActor } from '../actors/retry-backoff-actor.js';
import { retryPresetDelayMs } from '../compiler/routing.js';
import type { GraphLookup } from './graph-lookup.js';
import type { HandlerInvocationInput } from './invocation-runtime.js';
import type { PipelineMachineContext } from './machine-context.js';

/**
 * The delay before a retry: the one decided with the retry (`context.retryDelayMs`, what `node.retry`
 * reported), else (a snapshot persisted before it was kept) from the node's `retry_policy` and the
 * attempt, with jitter from `random`.
 */
export function retryBackoffDelay(lookup: GraphLookup, random: () => number) {
  return ({ context }: { context: PipelineMachineContext }): number => {
    if (context.retryDelayMs !== undefined) return context.retryDelayMs;
    const n = context.lastNode ? lookup.node(context.lastNode) : undefined;
    const attempt = n ? (context.nodeRetries[n.id] ?? 1) : 1;
    return retryPresetDelayMs(n?.attrs.retry_policy, attempt, random);
  };
}

/** The pipeline's `retryBackoff` actor: the wait before a node's next attempt. */
export const pipelineBackoff = (
  lookup: GraphLookup,
  random: () => number,
): RetryBackoffLogic<HandlerInvocationInput> =>
  retryBackoffActor<HandlerInvocationInput>(retryBackoffDelay(lookup, random));
