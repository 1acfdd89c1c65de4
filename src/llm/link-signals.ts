import { RequestTimeoutError } from './errors/request-timeout-error.js';

export interface LinkedSignal {
  /** Undefined when there is nothing to follow: no caller signal and no timeout. */
  signal: AbortSignal | undefined;
  /** True when our own timeout (not the caller) aborted the signal. */
  timedOut(): boolean;
  dispose(): void;
}

/** What a call without a timeout links: the caller's own signal (or none), nothing to remember or dispose. */
const notLinked = (signal: AbortSignal | undefined): LinkedSignal =>
  signal === undefined ? NO_SIGNAL : { signal, timedOut: never, dispose: nothing };
const never = (): boolean => false;
const nothing = (): void => {};
const NO_SIGNAL: LinkedSignal = Object.freeze({ signal: undefined, timedOut: never, dispose: nothing });

/**
 * One signal that fires on the caller's abort or after `timeoutMs`, remembering which. Without a timeout
 * it is the caller's signal itself: an AbortController costs about 3 µs to make on Node 20, the largest
 * single cost of an agent's tool round (decision 0041), and there is nothing to tell apart.
 */
export function linkSignals(
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
  what: string,
): LinkedSignal {
  if (timeoutMs === undefined || !(timeoutMs > 0)) return notLinked(signal);
  const controller = new AbortController();
  let timedOut = false;
  let links: Set<AbortController> | undefined;
  if (signal?.aborted) controller.abort(signal.reason);
  else if (signal) links = follow(signal, controller);
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new RequestTimeoutError(`${what} timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose() {
      clearTimeout(timer);
      links?.delete(controller);
    },
  };
}

/**
 * The links (calls with a timeout) that follow each caller's signal. A caller such as an agent session passes
 * the same signal to every model call; adding and removing an abort listener on it for each call costs about a microsecond on
 * Node 20 (bench/agent-loop-overhead.mjs), so each signal gets one listener, which aborts the links alive at
 * that moment (in the order they were made) and is gone with the signal.
 */
const followers = new WeakMap<AbortSignal, Set<AbortController>>();

/** Adds `controller` to the links following `signal`; returns that set (dispose removes it from there). */
function follow(signal: AbortSignal, controller: AbortController): Set<AbortController> {
  const links = followers.get(signal);
  if (links) return links.add(controller);
  const created = new Set([controller]);
  followers.set(signal, created);
  signal.addEventListener(
    'abort',
    () => {
      followers.delete(signal);
      // A link disposed by an earlier link's abort handler is skipped, as a removed listener would be.
      for (const link of [...created]) if (created.has(link)) link.abort(signal.reason);
      created.clear();
    },
    { once: true },
  );
  return created;
}
