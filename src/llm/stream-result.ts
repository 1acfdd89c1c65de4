import { StreamAccumulator } from './stream-accumulator.js';
import type { Response, StreamEvent } from './types.js';

/**
 * What `LLMClient.stream()` returns: the event stream itself (iterate it as before), plus the spec's
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
  readonly #accumulator = new StreamAccumulator();
  #done = false;

  constructor(inner: AsyncIterator<StreamEvent>) {
    this.#inner = inner;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<StreamEvent, undefined>> {
    return this.#inner.next().then(this.#observe);
  }

  async return(): Promise<IteratorResult<StreamEvent, undefined>> {
    this.#done = true;
    await this.#inner.return?.();
    return { done: true, value: undefined };
  }

  /** The response assembled so far (the final one once the stream has finished). */
  get partialResponse(): Response {
    return this.#accumulator.response;
  }

  /** Reads the stream to its end and resolves with the final response; rejects with the stream's error. */
  async response(): Promise<Response> {
    while (!this.#done) await this.next();
    return this.#accumulator.response;
  }

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
    if (result.done) {
      this.#done = true;
      return { done: true, value: undefined };
    }
    this.#accumulator.add(result.value);
    return result;
  };
}
