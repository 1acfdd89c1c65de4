/**
 * One AbortSignal per provider call that fires when the caller aborts or when our own timer runs out, and
 * remembers which of the two it was. The SDKs' own timeouts are not enough: openai stops its timer once the
 * headers arrive and returns silently when a body read is aborted, and @google/genai reports its timeout as
 * a plain abort, so neither can tell a hung stream from a cancelled one. Shared by the OpenAI,
 * OpenAI-compatible and Gemini adapters.
 */
export interface RequestDeadline {
  /** Pass this to the SDK call. */
  readonly signal: AbortSignal;
  /** True once our timer, not the caller, aborted the call. */
  readonly timedOut: boolean;
  /**
   * Restarts the timer, for `nextTimeoutMs` when given (else the current limit): streams call it once their
   * headers arrive and before every read, so the limit bounds each wait, not the whole stream.
   */
  touch(nextTimeoutMs?: number): void;
  /** The limit the timer currently enforces (for error messages). */
  readonly timeoutMs: number | undefined;
  /** Stops the timer until the next `touch`. */
  pause(): void;
  /** Clears the timer and the listener on the caller's signal. */
  dispose(): void;
}

export function startRequestDeadline(
  timeoutMs: number | undefined,
  callerSignal?: AbortSignal,
): RequestDeadline {
  const controller = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  let limit = timeoutMs;
  const arm = (next?: number) => {
    if (next !== undefined) limit = next;
    if (timer !== undefined) clearTimeout(timer);
    if (limit === undefined || limit <= 0 || controller.signal.aborted) return;
    const ms = limit;
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException(`request timed out after ${ms} ms`, 'TimeoutError'));
    }, ms);
  };
  const onCallerAbort = () => controller.abort(callerSignal?.reason);

  if (callerSignal?.aborted) controller.abort(callerSignal.reason);
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  arm();

  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    get timeoutMs() {
      return limit;
    },
    touch: arm,
    pause: () => {
      if (timer !== undefined) clearTimeout(timer);
    },
    dispose: () => {
      if (timer !== undefined) clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
}
