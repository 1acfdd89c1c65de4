import { definedFields } from '../../../shared/defined-fields.js';
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
  let timerDueAt = 0;
  let deadlineAt = 0;
  let paused = true;
  let limit = timeoutMs;

  // Streams touch the deadline on every event; re-arming a timer each time costs more than the event
  // itself, so one timer runs and, when it fires early, sleeps again for what is left.
  const schedule = (ms: number) => {
    timerDueAt = Date.now() + ms;
    timer = setTimeout(fire, ms);
  };
  const fire = () => {
    timer = undefined;
    if (paused || controller.signal.aborted) return;
    const left = deadlineAt - Date.now();
    if (left > 0) {
      schedule(left);
      return;
    }
    timedOut = true;
    controller.abort(new DOMException(`request timed out after ${limit} ms`, 'TimeoutError'));
  };
  const arm = (next?: number) => {
    if (next !== undefined) limit = next;
    if (limit === undefined || limit <= 0 || controller.signal.aborted) {
      paused = true;
      return;
    }
    paused = false;
    deadlineAt = Date.now() + limit;
    if (timer !== undefined && timerDueAt <= deadlineAt) return;
    if (timer !== undefined) clearTimeout(timer);
    schedule(limit);
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
      paused = true;
    },
    dispose: () => {
      paused = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
}

/** What an error mapper needs to know of a call's deadline: the caller's signal, and whether our timer fired. */
export function deadlineErrorContext(
  deadline: RequestDeadline,
  callerSignal: AbortSignal | undefined,
): { signal?: AbortSignal; timedOut: boolean; timeoutMs?: number } {
  return {
    ...definedFields({ signal: callerSignal }),
    timedOut: deadline.timedOut,
    ...definedFields({ timeoutMs: deadline.timeoutMs }),
  };
}
