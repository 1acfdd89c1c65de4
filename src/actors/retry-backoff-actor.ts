import { fromPromise, type PromiseActorLogic } from 'xstate';

export type RetryBackoffLogic<TInput> = PromiseActorLogic<void, TInput>;

/**
 * The wait between a node's attempts, as the actor the `backoff` state invokes; `delay` says how long
 * from the invocation's input (the machine decides it: `machines/retry-delay.ts`). An actor (not an
 * `after` delay) so that a persisted snapshot taken during the wait restores into a wait that runs
 * again: XState restarts invoked actors on restore but keeps no timers (decision 0020).
 * Stopping the pipeline (cancel, `actor.stop()`) aborts the signal, which clears the timer.
 */
export function retryBackoffActor<TInput>(delay: (input: TInput) => number): RetryBackoffLogic<TInput> {
  return fromPromise<void, TInput>(
    ({ input, signal }) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay(input));
        signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
      }),
  );
}
