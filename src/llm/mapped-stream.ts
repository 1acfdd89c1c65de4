/** What a provider's stream mapper does with each raw event. */
export interface StreamMapper<In, Out> {
  /** Push zero or more unified events for one raw event; return true when the stream is complete. */
  map(event: In, push: (event: Out) => void): boolean;
  /** The raw stream ended before `map` reported completion: throw the provider's error. */
  endedEarly(): never;
  /** Translate whatever opening or reading the raw stream threw. */
  mapError(error: unknown): unknown;
}

/** Times the waits on the raw stream (see providers/shared/request-deadline.ts). */
export interface ReadTimer {
  /** Called before each read of the raw stream. */
  touch(): void;
  /** Called when a read returns: the consumer's time is not the server's silence. */
  pause(): void;
  /** Called once the stream is over, however it ended. */
  dispose(): void;
}

/**
 * The consumer's per-event step, run inside this stream instead of in a `then` of its own (see
 * `TappableStream`): `map` every event; on a failure, `fail` gets the mapped error and returns the event to
 * yield and the error to throw on the next pull (or throws to end at once); `end` once it is over.
 */
export interface StreamTap<Out> {
  map(event: Out): Out;
  fail(error: unknown): { event: Out; error: unknown };
  end(): void;
}

/**
 * A stream that can take over its consumer's per-event step. The client's stream wraps the adapter's and
 * would otherwise add one promise per event; once nothing can be retried any more it taps the adapter's
 * stream and hands its results through untouched (bench/llm-stream.mjs, target ≤ 1.3× the raw SDK).
 */
export interface TappableStream<Out> extends AsyncIterator<Out> {
  tap(tap: StreamTap<Out>): void;
  /**
   * Reads the rest of the stream, handing each (tapped) event to `onEvent` as soon as it is known, and
   * settles when the stream is over, rejecting with what `next()` would have thrown. Events already in hand
   * go out synchronously: a consumer that wants every event and no pause between them (an agent's model
   * turn, `StreamResult.response()`) pays one promise per raw read instead of one per event.
   */
  drain?(onEvent: (event: Out) => void): Promise<void>;
}

export function isTappableStream<Out>(stream: AsyncIterator<Out>): stream is TappableStream<Out> {
  return typeof (stream as Partial<TappableStream<Out>>).tap === 'function';
}

/** A stream that can be drained (see `TappableStream.drain`). */
export interface DrainableStream<Out> extends AsyncIterator<Out> {
  drain(onEvent: (event: Out) => void): Promise<void>;
  /**
   * `drain` without a promise when nothing has to be awaited: delivers the events in hand, returns undefined
   * when the stream is over, or a promise that settles when it is; throws what `drain` would reject with. A
   * consumer handing the result on from a `then` callback saves the two jobs a returned promise costs.
   */
  drainNow?(onEvent: (event: Out) => void): Promise<void> | undefined;
  /**
   * The next result without a promise when it is in hand, else undefined (then `next()` goes on from there);
   * throws what `next()` would reject with. Lets a consumer that drains take the first event in the same job.
   */
  nextNow?(): IteratorResult<Out, undefined> | undefined;
}

export function isDrainableStream<Out>(stream: AsyncIterator<Out>): stream is DrainableStream<Out> {
  return typeof (stream as Partial<DrainableStream<Out>>).drain === 'function';
}

/**
 * A hand-written async iterator that maps a provider SDK's raw event stream to unified events. It
 * replaces an async generator because each generator layer costs extra promises per event and the
 * client's overhead over the raw SDK stream is budgeted (bench/llm-stream.mjs, target ≤ 1.3×).
 */
export class MappedStream<In, Out> implements AsyncIterableIterator<Out>, TappableStream<Out> {
  readonly #open: () => Promise<AsyncIterable<In>>;
  readonly #mapper: StreamMapper<In, Out>;
  readonly #timer: ReadTimer | undefined;
  #source: AsyncIterator<In> | undefined;
  // Most raw events map to exactly one unified event: it waits in `#first`, and only the rare extra ones
  // go through the queue, so the common case allocates no array.
  #first: Out | undefined;
  #hasFirst = false;
  #queue: Out[] = [];
  #head = 0;
  #complete = false;
  #closed = false;
  #tap: StreamTap<Out> | undefined;
  #pendingError: { error: unknown } | undefined;
  readonly #push = (event: Out): void => {
    if (!this.#hasFirst && this.#head === this.#queue.length) {
      this.#first = event;
      this.#hasFirst = true;
    } else this.#queue.push(event);
  };

  constructor(open: () => Promise<AsyncIterable<In>>, mapper: StreamMapper<In, Out>, timer?: ReadTimer) {
    this.#open = open;
    this.#mapper = mapper;
    this.#timer = timer;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  tap(tap: StreamTap<Out>): void {
    this.#tap = tap;
  }

  next(): Promise<IteratorResult<Out, undefined>> {
    if (this.#hasFirst || this.#head < this.#queue.length) return Promise.resolve(this.#take());
    if (this.#pendingError) {
      const { error } = this.#pendingError;
      this.#pendingError = undefined;
      return Promise.reject(error);
    }
    if (this.#complete || this.#closed) {
      this.#end();
      return Promise.resolve({ done: true, value: undefined });
    }
    const source = this.#source;
    if (!source) return this.#start();
    this.#timer?.touch();
    return source.next().then(this.#onResult, this.#onError);
  }

  async drain(onEvent: (event: Out) => void): Promise<void> {
    try {
      for (;;) {
        while (this.#hasFirst || this.#head < this.#queue.length) onEvent(this.#take().value as Out);
        const result = await this.next();
        if (result.done) return;
        onEvent(result.value);
      }
    } catch (error) {
      // Closes the raw stream when the consumer threw (after a failure of the stream itself it is closed).
      await this.return();
      throw error;
    }
  }

  async return(): Promise<IteratorResult<Out, undefined>> {
    if (!this.#closed) {
      this.#closed = true;
      this.#end();
      await this.#source?.return?.();
    }
    return { done: true, value: undefined };
  }

  async #start(): Promise<IteratorResult<Out, undefined>> {
    try {
      this.#source = (await this.#open())[Symbol.asyncIterator]();
    } catch (error) {
      return this.#raise(error);
    }
    return this.next();
  }

  #take(): IteratorResult<Out, undefined> {
    let value: Out;
    if (this.#hasFirst) {
      value = this.#first as Out;
      this.#first = undefined;
      this.#hasFirst = false;
    } else {
      value = this.#queue[this.#head++] as Out;
      if (this.#head === this.#queue.length) {
        this.#queue = [];
        this.#head = 0;
      }
    }
    return { done: false, value: this.#tap ? this.#tap.map(value) : value };
  }

  readonly #onResult = (
    result: IteratorResult<In>,
  ): IteratorResult<Out, undefined> | Promise<IteratorResult<Out, undefined>> => {
    this.#timer?.pause();
    if (result.done) {
      if (this.#complete) return { done: true, value: undefined };
      try {
        this.#mapper.endedEarly();
      } catch (error) {
        return this.#raise(error);
      }
    }
    try {
      if (this.#mapper.map(result.value, this.#push)) this.#complete = true;
    } catch (error) {
      return this.#raise(error);
    }
    if (this.#hasFirst || this.#head < this.#queue.length) return this.#take();
    // A raw event with nothing to show (ping, signature delta): read on.
    return this.next();
  };

  readonly #onError = (error: unknown): IteratorResult<Out, undefined> => this.#raise(error);

  /** Ends the stream with the provider's (mapped) error: thrown, or handed to the tap. */
  #raise(error: unknown): IteratorResult<Out, undefined> {
    this.#closed = true;
    this.#queue = [];
    this.#head = 0;
    this.#hasFirst = false;
    const mapped = this.#mapper.mapError(error);
    const tap = this.#tap;
    if (!tap) {
      this.#end();
      throw mapped;
    }
    try {
      const failure = tap.fail(mapped);
      this.#pendingError = { error: failure.error };
      return { done: false, value: failure.event };
    } finally {
      this.#end();
    }
  }

  #end(): void {
    this.#timer?.dispose();
    this.#tap?.end();
  }
}
