import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { PipelineEvent } from '../shared/pipeline-event.js';

interface Subscriber {
  queue: PipelineEvent[];
  ended: boolean;
  wake?: () => void;
}

/**
 * `run.events()`: a run's events as async iterables. An iterator created at any time, even after the
 * run ended, yields every event of this run from its first (`pipeline.start` or `pipeline.resume`),
 * then follows live, and finishes when the run ends. Earlier events are read back from `events.jsonl`
 * (from the offset where this run began appending) instead of being kept in memory, so a long run
 * holds no history here; what an iterator holds is the live events it has not consumed yet (the run
 * never waits for a slow consumer). Breaking out of the loop unsubscribes at once.
 */
export class RunEventFeed {
  readonly #path: string;
  readonly #startOffset: number;
  readonly #flush: () => void | Promise<void>;
  readonly #subscribers = new Set<Subscriber>();
  #published = 0;
  #ended = false;

  /** `flush` writes the log's pending lines (or resolves once written), so the file holds every event published so far. */
  constructor(eventsFile: string, startOffset: number, flush: () => void | Promise<void>) {
    this.#path = eventsFile;
    this.#startOffset = startOffset;
    this.#flush = flush;
  }

  /** Live iterators (for tests: a `break` must leave none behind). */
  get subscriberCount(): number {
    return this.#subscribers.size;
  }

  publish(event: PipelineEvent): void {
    if (this.#ended) return;
    this.#published += 1;
    for (const sub of this.#subscribers) {
      sub.queue.push(event);
      sub.wake?.();
    }
  }

  /** The run ended: iterators finish once they have yielded what they hold. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const sub of this.#subscribers) {
      sub.ended = true;
      sub.wake?.();
    }
    this.#subscribers.clear();
  }

  /**
   * Subscribes at the first `next()`, not before: an iterator that is never read (or is dropped) holds
   * nothing. No event falls between history and live, because the history read then is exactly what was
   * published up to that moment, and the subscription takes every event after it.
   */
  events(): AsyncIterableIterator<PipelineEvent> {
    let inner: AsyncIterableIterator<PipelineEvent> | undefined;
    let closed = false;
    const open = (): AsyncIterableIterator<PipelineEvent> => {
      if (inner) return inner;
      const written = this.#flushed();
      const sub: Subscriber = { queue: [], ended: this.#ended || closed };
      if (!sub.ended) this.#subscribers.add(sub);
      inner = this.#iterate(sub, this.#published, written);
      return inner;
    };
    const done = (): IteratorResult<PipelineEvent, undefined> => ({ done: true, value: undefined });
    const iterator: AsyncIterableIterator<PipelineEvent> = {
      next: () => (closed && !inner ? Promise.resolve(done()) : open().next()),
      return: async () => {
        closed = true;
        if (inner) await inner.return?.();
        return done();
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  /** The log's pending lines written; a log the run cannot write (it reports that) leaves what the file holds. */
  #flushed(): Promise<void> {
    try {
      return Promise.resolve(this.#flush()).catch(() => {});
    } catch {
      return Promise.resolve();
    }
  }

  async *#iterate(
    sub: Subscriber,
    history: number,
    written: Promise<void>,
  ): AsyncIterableIterator<PipelineEvent> {
    try {
      if (history > 0) {
        await written;
        yield* this.#readHistory(history);
      }
      for (;;) {
        const next = sub.queue.shift();
        if (next) {
          yield next;
          continue;
        }
        if (sub.ended) return;
        await new Promise<void>((resolve) => {
          sub.wake = resolve;
        });
        sub.wake = undefined;
      }
    } finally {
      this.#subscribers.delete(sub);
      sub.queue.length = 0;
    }
  }

  async *#readHistory(count: number): AsyncIterableIterator<PipelineEvent> {
    const stream = createReadStream(this.#path, { start: this.#startOffset, encoding: 'utf8' });
    const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
    let read = 0;
    try {
      for await (const line of lines) {
        if (line.trim() === '') continue;
        read += 1;
        yield JSON.parse(line) as PipelineEvent;
        if (read >= count) return;
      }
    } finally {
      lines.close();
      stream.destroy();
    }
  }
}
