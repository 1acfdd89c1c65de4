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
 * A hand-written async iterator that maps a provider SDK's raw event stream to unified events. It
 * replaces an async generator because each generator layer costs extra promises per event and the
 * client's overhead over the raw SDK stream is budgeted (bench/llm-stream.mjs, target ≤ 1.3×).
 */
export class MappedStream<In, Out> implements AsyncIterableIterator<Out> {
  readonly #open: () => Promise<AsyncIterable<In>>;
  readonly #mapper: StreamMapper<In, Out>;
  #source: AsyncIterator<In> | undefined;
  #queue: Out[] = [];
  #head = 0;
  #complete = false;
  #closed = false;
  readonly #push = (event: Out): void => {
    this.#queue.push(event);
  };

  readonly #timer: ReadTimer | undefined;

  constructor(open: () => Promise<AsyncIterable<In>>, mapper: StreamMapper<In, Out>, timer?: ReadTimer) {
    this.#open = open;
    this.#mapper = mapper;
    this.#timer = timer;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<Out, undefined>> {
    if (this.#head < this.#queue.length) return Promise.resolve(this.#take());
    if (this.#complete || this.#closed) {
      this.#timer?.dispose();
      return Promise.resolve({ done: true, value: undefined });
    }
    const source = this.#source;
    if (!source) return this.#start();
    this.#timer?.touch();
    return source.next().then(this.#onResult, this.#onError);
  }

  async return(): Promise<IteratorResult<Out, undefined>> {
    if (!this.#closed) {
      this.#closed = true;
      this.#timer?.dispose();
      await this.#source?.return?.();
    }
    return { done: true, value: undefined };
  }

  async #start(): Promise<IteratorResult<Out, undefined>> {
    try {
      this.#source = (await this.#open())[Symbol.asyncIterator]();
    } catch (error) {
      this.#closed = true;
      const mapped = this.#mapper.mapError(error);
      this.#timer?.dispose();
      throw mapped;
    }
    return this.next();
  }

  #take(): IteratorResult<Out, undefined> {
    const value = this.#queue[this.#head++] as Out;
    if (this.#head === this.#queue.length) {
      this.#queue = [];
      this.#head = 0;
    }
    return { done: false, value };
  }

  readonly #onResult = (
    result: IteratorResult<In>,
  ): IteratorResult<Out, undefined> | Promise<IteratorResult<Out, undefined>> => {
    this.#timer?.pause();
    if (result.done) {
      if (this.#complete) return { done: true, value: undefined };
      this.#closed = true;
      try {
        this.#mapper.endedEarly();
      } catch (error) {
        throw this.#mapper.mapError(error);
      }
    }
    try {
      if (this.#mapper.map(result.value, this.#push)) this.#complete = true;
    } catch (error) {
      this.#closed = true;
      throw this.#mapper.mapError(error);
    }
    if (this.#head < this.#queue.length) return this.#take();
    // A raw event with nothing to show (ping, signature delta): read on.
    return this.next();
  };

  readonly #onError = (error: unknown): never => {
    this.#closed = true;
    const mapped = this.#mapper.mapError(error);
    this.#timer?.dispose();
    throw mapped;
  };
}
