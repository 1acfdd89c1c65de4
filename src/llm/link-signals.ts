import { RequestTimeoutError } from './errors/request-timeout-error.js';

export interface LinkedSignal {
  signal: AbortSignal;
  /** True when our own timeout (not the caller) aborted the signal. */
  timedOut(): boolean;
  dispose(): void;
}

/** One signal that fires on the caller's abort or after `timeoutMs`, remembering which. */
export function linkSignals(
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
  what: string,
): LinkedSignal {
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) controller.abort(signal.reason);
  else signal?.addEventListener('abort', onAbort, { once: true });
  const timer =
    timeoutMs !== undefined && timeoutMs > 0
      ? setTimeout(() => {
          timedOut = true;
          controller.abort(new RequestTimeoutError(`${what} timed out after ${timeoutMs} ms`));
        }, timeoutMs)
      : undefined;
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose() {
      if (timer) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}
