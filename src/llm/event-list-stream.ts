import type { StreamTap, TappableStream } from './mapped-stream.js';
import type { StreamEvent } from './types.js';

/** What #nextEvent returns at the end of the events. */
const DONE = Symbol('done');

/**
 * A stream over events that are all known once `load` resolves (a scripted or replayed answer). It is a
 * hand-written, tappable iterator rather than an async generator: a generator costs two promises per event,
 * which made the fake's streaming — not the code under test — most of what bench/agent-loop-overhead.mjs
 * measured. Checks `signal` before every event, as a provider's stream would notice an abort, also when
 * drained (all events in one synchronous pass: an abort from an event's consumer still stops the next one).
 * `load` may hand the events over at once (a scripted answer known when the stream opens): then a drain
 * delivers them all with no promise in between (`drainNow`).
 */
export class EventListStream implements AsyncIterableIterator<StreamEvent>, TappableStream<StreamEvent> {
  #load: (() => readonly StreamEvent[] | Promise<readonly StreamEvent[]>) | undefined;
  readonly #signal: AbortSignal | undefined;
  #events: readonly StreamEvent[] = [];
  #index = 0;
  #over = false;
  #tap: StreamTap<StreamEvent> | undefined;
  #pendingError: { error: unknown } | undefined;
  /** A load still pending when `nextNow` ran it: the next pull waits for it. */
  #loading: Promise<readonly StreamEvent[]> | undefined;

  constructor(load: () => readonly StreamEvent[] | Promise<readonly StreamEvent[]>, signal?: AbortSignal) {
    this.#load = load;
    this.#signal = signal;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  tap(tap: StreamTap<StreamEvent>): void {
    this.#tap = tap;
  }

  next(): Promise<IteratorResult<StreamEvent, undefined>> {
    if (this.#load) return this.#start();
    const loading = this.#loading;
    if (loading) {
      this.#loading = undefined;
      return this.#whenLoaded(loading);
    }
    try {
      return Promise.resolve(this.#step());
    } catch (error) {
      return Promise.reject(error);
    }
  }

  drain(onEvent: (event: StreamEvent) => void): Promise<void> {
    try {
      return this.drainNow(onEvent) ?? Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Delivers every event in hand to `onEvent` synchronously. Returns undefined when the stream is over, or a
   * promise that settles when it is (the events were still loading); throws what `next()` would reject with.
   */
  drainNow(onEvent: (event: StreamEvent) => void): Promise<void> | undefined {
    let loading: readonly StreamEvent[] | Promise<readonly StreamEvent[]> | undefined = this.#loading;
    this.#loading = undefined;
    if (this.#load) loading = this.#begin();
    if (loading !== undefined) {
      if (!Array.isArray(loading)) {
        return (loading as Promise<readonly StreamEvent[]>).then(
          (events) => {
            this.#events = events;
            return this.drainNow(onEvent);
          },
          (error: unknown) => this.#loadFailed(error),
        );
      }
      this.#events = loading;
    }
    for (;;) {
      const event = this.#nextEvent();
      if (event === DONE) return undefined;
      this.#deliver(onEvent, event);
    }
  }

  /**
   * The first result without a promise when it is in hand: loads (once) and returns the first result, or
   * undefined when the load is still pending (the next pull waits for it). Throws what `next()` would reject
   * with. The client's stream reads a scripted answer's first event this way.
   */
  nextNow(): IteratorResult<StreamEvent, undefined> | undefined {
    if (this.#load) {
      const loading = this.#begin();
      if (!Array.isArray(loading)) {
        this.#loading = loading as Promise<readonly StreamEvent[]>;
        return undefined;
      }
      this.#events = loading;
    } else if (this.#loading) return undefined;
    return this.#step();
  }

  /** A consumer that throws ends the stream (as `break` in a for-await would), then its error goes on. */
  #deliver(onEvent: (event: StreamEvent) => void, event: StreamEvent): void {
    try {
      onEvent(event);
    } catch (error) {
      this.#end();
      throw error;
    }
  }

  return(): Promise<IteratorResult<StreamEvent, undefined>> {
    this.#load = undefined;
    this.#loading = undefined;
    this.#end();
    return Promise.resolve({ done: true, value: undefined });
  }

  // Not an async method (one promise fewer per answer): a load that throws or rejects ends the stream and
  // rejects the first pull; otherwise the first event follows the load, at once when it handed its events over.
  #start(): Promise<IteratorResult<StreamEvent, undefined>> {
    let loading: readonly StreamEvent[] | Promise<readonly StreamEvent[]>;
    try {
      loading = this.#begin();
      if (Array.isArray(loading)) return Promise.resolve(this.#loaded(loading));
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#whenLoaded(loading as Promise<readonly StreamEvent[]>);
  }

  /** Runs `load` once; a load that throws ends the stream and the error goes on. */
  #begin(): readonly StreamEvent[] | Promise<readonly StreamEvent[]> {
    const load = this.#load as () => readonly StreamEvent[] | Promise<readonly StreamEvent[]>;
    this.#load = undefined;
    try {
      return load();
    } catch (error) {
      this.#end();
      throw error;
    }
  }

  /** The first result once a pending load is in (steps bound only for loads that are pending). */
  #whenLoaded(loading: Promise<readonly StreamEvent[]>): Promise<IteratorResult<StreamEvent, undefined>> {
    return loading.then(
      (events) => this.#loaded(events),
      (error: unknown) => this.#loadFailed(error),
    );
  }

  #loaded(events: readonly StreamEvent[]): IteratorResult<StreamEvent, undefined> {
    this.#events = events;
    return this.#step();
  }

  #loadFailed(error: unknown): never {
    this.#end();
    throw error;
  }

  #step(): IteratorResult<StreamEvent, undefined> {
    const event = this.#nextEvent();
    return event === DONE ? { done: true, value: undefined } : { done: false, value: event };
  }

  /** The next (tapped) event, or DONE; throws what the next pull must throw. No result object: drains call it. */
  #nextEvent(): StreamEvent | typeof DONE {
    const pending = this.#pendingError;
    if (pending) {
      this.#pendingError = undefined;
      throw pending.error;
    }
    if (this.#over) return DONE;
    if (this.#signal?.aborted) return this.#raise(this.#signal.reason);
    if (this.#index >= this.#events.length) {
      this.#end();
      return DONE;
    }
    const event = this.#events[this.#index++] as StreamEvent;
    return this.#tap ? this.#tap.map(event) : event;
  }

  /** Ends the stream with `error`: thrown, or handed to the tap (which yields an error event first). */
  #raise(error: unknown): StreamEvent {
    const tap = this.#tap;
    try {
      if (!tap) throw error;
      const failure = tap.fail(error);
      this.#pendingError = { error: failure.error };
      return failure.event;
    } finally {
      this.#end();
    }
  }

  #end(): void {
    if (this.#over) return;
    this.#over = true;
    this.#tap?.end();
  }
}
