import { LLMError } from './errors/llm-error.js';
import { isDrainableStream, isTappableStream, type StreamTap } from './mapped-stream.js';
import type { StreamEvent } from './types.js';

export interface DirectStreamHooks {
  /** Runs once before the first event is pulled (middleware `beforeRequest`, adapter choice); async only when it must wait. */
  begin(): Promise<void> | void;
  /** Opens (or, after a retryable failure, re-opens) the adapter's stream. */
  open(): AsyncIterator<StreamEvent>;
  map(event: StreamEvent): StreamEvent;
  /** Resolves to retry; throws the typed error to give up. */
  onFailure(caught: unknown, attempt: number, yielded: boolean): Promise<void>;
  /** The typed error a failure becomes once part of the stream was yielded (no retry is possible then). */
  finalError(caught: unknown): unknown;
  dispose(): void;
}

/**
 * The client's stream when no middleware wraps streams: a hand-written iterator over the adapter's,
 * so each event costs one `then` instead of another async-generator layer (the client's overhead over
 * the raw SDK stream is what bench/llm-stream.mjs measures). Same contract as the generator path:
 * retries only before anything was yielded; on failure an `error` event, then the iterator throws.
 *
 * Once the first event is out, nothing can be retried any more, so when the adapter's stream can run this
 * stream's per-event step itself (a `TappableStream`), it does, and `next()` hands its promises through.
 */
export class DirectStream implements AsyncIterableIterator<StreamEvent> {
  readonly #hooks: DirectStreamHooks;
  #inner: AsyncIterator<StreamEvent> | undefined;
  #attempt = 0;
  #yielded = false;
  #tapped = false;
  #finished = false;
  #pendingError: unknown;
  #hasPendingError = false;
  #resultStep: ((result: IteratorResult<StreamEvent>) => IteratorResult<StreamEvent, undefined>) | undefined;
  #errorStep: ((caught: unknown) => Promise<IteratorResult<StreamEvent, undefined>>) | undefined;

  constructor(hooks: DirectStreamHooks) {
    this.#hooks = hooks;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<StreamEvent, undefined>> {
    const inner = this.#inner;
    if (this.#tapped) return (inner as AsyncIterator<StreamEvent, undefined>).next();
    if (this.#finished) return this.#drain();
    if (!inner) return this.#start();
    return this.#pull(inner);
  }

  /**
   * Reads the stream to its end, handing each event to `onEvent` (see `TappableStream.drain`): events come
   * through `next()` until the adapter's stream is tapped, then straight from it. Rejects as `next()` would
   * throw, after the `error` event; when `onEvent` throws, the stream is closed and that error rejects.
   */
  drain(onEvent: (event: StreamEvent) => void): Promise<void> {
    const inner = this.#inner;
    // A drained adapter stream closes itself when `onEvent` throws, which finishes this one through its tap.
    if (this.#tapped && inner && isDrainableStream(inner)) return inner.drain(onEvent);
    let first: IteratorResult<StreamEvent, undefined> | Promise<IteratorResult<StreamEvent, undefined>>;
    let rest: Promise<void> | undefined;
    try {
      first = inner || this.#finished ? this.next() : this.#startNow();
      if (first instanceof Promise) return first.then((result) => this.#drainFrom(result, onEvent));
      rest = this.#drainFrom(first, onEvent);
    } catch (error) {
      return Promise.reject(error);
    }
    return rest ?? Promise.resolve();
  }

  /** Hands `result` over, then the rest: in this same job what the (now tapped) adapter's stream holds. */
  #drainFrom(result: IteratorResult<StreamEvent, undefined>, onEvent: (event: StreamEvent) => void) {
    if (result.done) return undefined;
    try {
      onEvent(result.value);
    } catch (error) {
      return this.return().then(() => {
        throw error;
      });
    }
    const tapped = this.#inner;
    if (this.#tapped && tapped && isDrainableStream(tapped) && tapped.drainNow)
      return tapped.drainNow(onEvent);
    return this.drain(onEvent);
  }

  async return(): Promise<IteratorResult<StreamEvent, undefined>> {
    if (!this.#finished) {
      this.#finish();
      await this.#inner?.return?.();
    }
    return { done: true, value: undefined };
  }

  // Not an async method: when no middleware has to be awaited, `begin` is synchronous and the stream opens
  // without an extra promise (this runs once per model call of an agent loop).
  #start(): Promise<IteratorResult<StreamEvent, undefined>> {
    let begun: Promise<void> | void;
    try {
      begun = this.#hooks.begin();
    } catch (error) {
      return this.#failNow(error);
    }
    return begun
      ? begun.then(
          () => this.#open(),
          (error: unknown) => this.#fail(error),
        )
      : this.#open();
  }

  /**
   * `#start` for a drain: when nothing has to be awaited (no middleware to wait for, an adapter stream that
   * holds its first event) the first result comes back in this job, with no promise.
   */
  #startNow(): IteratorResult<StreamEvent, undefined> | Promise<IteratorResult<StreamEvent, undefined>> {
    let begun: Promise<void> | void;
    try {
      begun = this.#hooks.begin();
    } catch (error) {
      return this.#failNow(error);
    }
    if (begun) {
      return begun.then(
        () => this.#open(),
        (error: unknown) => this.#fail(error),
      );
    }
    let inner: AsyncIterator<StreamEvent>;
    try {
      inner = this.#hooks.open();
    } catch (error) {
      return this.#failNow(error);
    }
    this.#inner = inner;
    if (!isDrainableStream(inner) || !inner.nextNow) return this.#pull(inner);
    let result: IteratorResult<StreamEvent, undefined> | undefined;
    try {
      result = inner.nextNow();
    } catch (caught) {
      return this.#onError(caught);
    }
    return result === undefined ? this.#pull(inner) : this.#onResult(result);
  }

  /** `inner.next()` through this stream's result and error steps, bound once per stream when first needed. */
  #pull(inner: AsyncIterator<StreamEvent>): Promise<IteratorResult<StreamEvent, undefined>> {
    this.#resultStep ??= (result) => this.#onResult(result);
    this.#errorStep ??= (caught) => this.#onError(caught);
    return inner.next().then(this.#resultStep, this.#errorStep);
  }

  #open(): Promise<IteratorResult<StreamEvent, undefined>> {
    try {
      this.#inner = this.#hooks.open();
    } catch (error) {
      return this.#failNow(error);
    }
    return this.next();
  }

  #failNow(error: unknown): Promise<IteratorResult<StreamEvent, undefined>> {
    try {
      return Promise.resolve(this.#fail(error));
    } catch (thrown) {
      return Promise.reject(thrown);
    }
  }

  #onResult(result: IteratorResult<StreamEvent>): IteratorResult<StreamEvent, undefined> {
    if (result.done) {
      this.#finish();
      return { done: true, value: undefined };
    }
    if (!this.#yielded) {
      this.#yielded = true;
      this.#tapInner();
    }
    // The result object is the inner stream's fresh one: reuse it rather than allocate per event.
    result.value = this.#hooks.map(result.value);
    return result as IteratorResult<StreamEvent, undefined>;
  }

  #tapInner(): void {
    const inner = this.#inner;
    if (!inner || !isTappableStream(inner)) return;
    this.#tapped = true;
    inner.tap(new DirectStream.#Tap(this));
  }

  /** The tap this stream hands its adapter's stream: one object per stream, its steps are methods. */
  static readonly #Tap = class implements StreamTap<StreamEvent> {
    readonly map: (event: StreamEvent) => StreamEvent;
    readonly #stream: DirectStream;

    constructor(stream: DirectStream) {
      this.#stream = stream;
      this.map = stream.#hooks.map;
    }

    fail(caught: unknown): { event: StreamEvent; error: unknown } {
      const error = this.#stream.#hooks.finalError(caught);
      if (!LLMError.isLLMError(error)) throw error;
      return { event: { type: 'error', error }, error };
    }

    end(): void {
      this.#stream.#finish();
    }
  };

  async #onError(caught: unknown): Promise<IteratorResult<StreamEvent, undefined>> {
    try {
      await this.#hooks.onFailure(caught, this.#attempt++, this.#yielded);
      // A retry re-opens the adapter's stream, which can throw at once like the first open.
      this.#inner = this.#hooks.open();
    } catch (error) {
      return this.#fail(error);
    }
    return this.next();
  }

  #fail(error: unknown): IteratorResult<StreamEvent, undefined> {
    this.#finish();
    if (!LLMError.isLLMError(error)) throw error;
    this.#pendingError = error;
    this.#hasPendingError = true;
    return { done: false, value: { type: 'error', error } };
  }

  #drain(): Promise<IteratorResult<StreamEvent, undefined>> {
    if (this.#hasPendingError) {
      this.#hasPendingError = false;
      return Promise.reject(this.#pendingError);
    }
    return Promise.resolve({ done: true, value: undefined });
  }

  #finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#hooks.dispose();
  }
}
