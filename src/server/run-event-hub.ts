import path from 'node:path';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import { countEventLines, readEventLines } from './read-event-lines.js';

/** A subscriber's sink; returns false when it cannot keep up (it is then dropped). */
export type EventSink = {
  event(id: number, event: PipelineEvent): boolean;
  done(status: string): void;
};

const RING_SIZE = 2_000;

/**
 * Fan-out of one run's events to any number of SSE subscribers. Ids are the events' line numbers in
 * `events.jsonl`, so they survive a server restart and `Last-Event-ID` replay can read old events
 * from the file. The newest events are kept in a small ring because the engine writes the file on
 * the next event-loop turn: a subscriber joining mid-burst gets them from memory, older ones from disk.
 * Publishing never waits for a subscriber.
 */
export class RunEventHub {
  readonly #eventsFile: string;
  readonly #subscribers = new Set<EventSink>();
  readonly #ring: { id: number; event: PipelineEvent }[] = [];
  #seq: number;
  #finished?: string;

  constructor(runDir: string | undefined) {
    this.#eventsFile = runDir ? path.join(runDir, 'events.jsonl') : '';
    this.#seq = this.#eventsFile ? countEventLines(this.#eventsFile) : 0;
  }

  get eventCount(): number {
    return this.#seq;
  }

  get subscriberCount(): number {
    return this.#subscribers.size;
  }

  /** A resumed run appends to the same file: continue numbering from what it holds. */
  reopen(runDir: string): RunEventHub {
    const hub = new RunEventHub(runDir);
    for (const sink of this.#subscribers) hub.#subscribers.add(sink);
    this.#subscribers.clear();
    return hub;
  }

  publish(event: PipelineEvent): void {
    const id = ++this.#seq;
    this.#ring.push({ id, event });
    if (this.#ring.length > RING_SIZE) this.#ring.shift();
    for (const sink of this.#subscribers) {
      if (!sink.event(id, event)) this.#subscribers.delete(sink);
    }
  }

  /** The run ended (or will not run in this process): tell everyone and keep telling late joiners. */
  finish(status: string): void {
    this.#finished = status;
    for (const sink of this.#subscribers) sink.done(status);
    this.#subscribers.clear();
  }

  /** Replay events after `afterId`, then follow live; returns the unsubscribe function. */
  subscribe(afterId: number, sink: EventSink): () => void {
    const ringStart = this.#ring[0]?.id ?? this.#seq + 1;
    let last = afterId;
    let alive = true;
    if (afterId + 1 < ringStart && this.#eventsFile) {
      readEventLines(
        this.#eventsFile,
        afterId,
        (id, event) => {
          if (!alive) return;
          last = id;
          alive = sink.event(id, event);
        },
        ringStart - 1,
      );
    }
    for (const item of this.#ring) {
      if (!alive) break;
      if (item.id <= last) continue;
      last = item.id;
      alive = sink.event(item.id, item.event);
    }
    if (!alive) return () => {};
    if (this.#finished !== undefined) {
      sink.done(this.#finished);
      return () => {};
    }
    this.#subscribers.add(sink);
    return () => this.#subscribers.delete(sink);
  }
}
