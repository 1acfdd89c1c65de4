import { fromPromise, type PromiseActorLogic } from 'xstate';
import { retryPresetDelayMs } from '../compiler/routing.js';
import type { GraphLookup } from './graph-lookup.js';
import type { HandlerInvocationInput } from './invocation-runtime.js';
import type { PipelineMachineContext } from './machine-context.js';

export type RetryBackoffLogic = PromiseActorLogic<void, HandlerInvocationInput>;

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

/**
 * The wait between a node's attempts, as the actor the `backoff` state invokes. An actor (not an
 * `after` delay) so that a persisted snapshot taken during the wait restores into a wait that runs
 * again: XState restarts invoked actors on restore but keeps no timers (decision 0020).
 * Stopping the pipeline (cancel, `actor.stop()`) aborts the signal, which clears the timer.
 */
export function retryBackoffActor(lookup: GraphLookup, random: () => number): RetryBackoffLogic {
  const delay = retryBackoffDelay(lookup, random);
  return fromPromise<void, HandlerInvocationInput>(
    ({ input, signal }) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay(input));
        signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
      }),
  );
}
