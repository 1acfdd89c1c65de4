import { isDrainableStream } from './mapped-stream.js';
import { StreamAccumulator } from './stream-accumulator.js';
import type { Response, StreamEvent } from './types.js';

/**
 * What `LLMClient.stream()` returns: the event stream itself (iterate it as before), plus a
 * StreamResult view over the same events — `response()` for the final response, `textStream` for the text
 * alone, `partialResponse` for the response so far. The views share one underlying stream, so use one way of
 * reading at a time; `response()` after a partial read just reads the rest.
 *
 * @example
 * const result = client.stream({ model: 'claude-sonnet-4-6', messages: [Message.user('Hi')] });
 * for await (const delta of result.textStream) process.stdout.write(delta);
 * const response = await result.response();
 */
export class StreamResult implements AsyncIterableIterator<StreamEvent> {
  readonly #inner: AsyncIterator<StreamEvent>;
  readonly #accumulator: StreamAccumulator;
  /** The source folds each event into the accumulator itself (see the constructor). */
  readonly #sourceFolds: boolean;

  /**
   * @param fedAccumulator an accumulator the source already feeds inside its own per-event step (the
   *   client's direct stream does): then `next()` hands the source's results through untouched, one promise
   *   per event instead of two, which is most of the client's streaming overhead (bench/llm-stream.mjs).
   */
  constructor(inner: AsyncIterator<StreamEvent>, fedAccumulator?: StreamAccumulator) {
    this.#inner = inner;
    this.#accumulator = fedAccumulator ?? new StreamAccumulator();
    this.#sourceFolds = fedAccumulator !== undefined;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<StreamEvent, undefined>> {
    if (this.#sourceFolds) return this.#inner.next() as Promise<IteratorResult<StreamEvent, undefined>>;
    return this.#inner.next().then(this.#observe);
  }

  async return(): Promise<IteratorResult<StreamEvent, undefined>> {
    await this.#inner.return?.();
    return { done: true, value: undefined };
  }

  /** The response assembled so far (the final one once the stream has finished). */
  get partialResponse(): Response {
    return this.#accumulator.response;
  }

  /**
   * Reads the stream to its end and resolves with the final response; rejects with the stream's error.
   * `onEvent` sees every event on the way, as iterating would (the `error` event before the rejection), but
   * with no promise per event when the client's stream can hand its events over directly.
   */
  response(onEvent?: (event: StreamEvent) => void): Promise<Response> {
    const inner = this.#inner;
    if (this.#sourceFolds && isDrainableStream(inner)) {
      return inner.drain(onEvent ?? ignore).then(this.#final);
    }
    return this.#readToEnd(onEvent);
  }

  /**
   * `response(onEvent)` for a consumer that takes what it needs from the events (the `finish` event carries
   * the response): settles when the stream is over, one promise fewer than `response()`.
   */
  drain(onEvent: (event: StreamEvent) => void): Promise<unknown> {
    const inner = this.#inner;
    if (this.#sourceFolds && isDrainableStream(inner)) return inner.drain(onEvent);
    return this.#readToEnd(onEvent);
  }

  async #readToEnd(onEvent: ((event: StreamEvent) => void) | undefined): Promise<Response> {
    // A finished (or returned) source keeps answering `done`, so this also works after a partial read.
    for (;;) {
      const result = await this.next();
      if (result.done) return this.#accumulator.response;
      if (!onEvent) continue;
      try {
        onEvent(result.value);
      } catch (error) {
        await this.return();
        throw error;
      }
    }
  }

  readonly #final = (): Response => this.#accumulator.response;

  /** The text deltas alone. */
  get textStream(): AsyncIterable<string> {
    const events = this;
    return {
      async *[Symbol.asyncIterator]() {
        for await (const event of events) if (event.type === 'text_delta') yield event.delta;
      },
    };
  }

  readonly #observe = (result: IteratorResult<StreamEvent>): IteratorResult<StreamEvent, undefined> => {
    if (result.done) return { done: true, value: undefined };
    this.#accumulator.add(result.value);
    return result;
  };
}

const ignore = (): void => {};
