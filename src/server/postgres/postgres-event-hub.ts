import type pg from 'pg';
import type { PipelineEvent } from '../../shared/pipeline-event.js';
import type { EventSink } from '../run-event-hub.js';

const PAGE = 500;

interface Subscriber {
  sink: EventSink;
  last: number;
  reading: boolean;
  again: boolean;
  alive: boolean;
}

/**
 * One run's events as any server reads them from PostgreSQL: ids are the events' sequence numbers
 * there, so `Last-Event-ID` works against any server; a subscriber is sent what it has not seen, then
 * more each time the store hears (NOTIFY) that the run's executor committed events. The stream ends
 * once the run has ended and every event was sent.
 */
export class PostgresEventHub {
  readonly #pool: pg.Pool;
  readonly #runId: string;
  readonly #ended: () => string | undefined;
  readonly #subscribers = new Set<Subscriber>();
  #count: number;

  constructor(pool: pg.Pool, runId: string, count: number, ended: () => string | undefined) {
    this.#pool = pool;
    this.#runId = runId;
    this.#count = count;
    this.#ended = ended;
  }

  get eventCount(): number {
    return this.#count;
  }

  get subscriberCount(): number {
    return this.#subscribers.size;
  }

  /** The run's executor committed events up to `seq`, or its status changed: send what is new. */
  changed(seq?: number): void {
    if (seq !== undefined) this.#count = Math.max(this.#count, seq);
    for (const subscriber of this.#subscribers) void this.#pump(subscriber);
  }

  subscribe(afterId: number, sink: EventSink): () => void {
    const subscriber: Subscriber = { sink, last: afterId, reading: false, again: false, alive: true };
    this.#subscribers.add(subscriber);
    void this.#pump(subscriber);
    return () => {
      subscriber.alive = false;
      this.#subscribers.delete(subscriber);
    };
  }

  async #pump(subscriber: Subscriber): Promise<void> {
    if (subscriber.reading) {
      subscriber.again = true;
      return;
    }
    subscriber.reading = true;
    try {
      do {
        subscriber.again = false;
        // Read before the rows: an end seen now comes after every event it could have followed.
        const ended = this.#ended();
        let rows: { seq: string; event: PipelineEvent }[];
        do {
          ({ rows } = await this.#pool.query<{ seq: string; event: PipelineEvent }>(
            'SELECT seq, event FROM attractor.events WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3',
            [this.#runId, subscriber.last, PAGE],
          ));
          for (const row of rows) {
            if (!subscriber.alive) return;
            subscriber.last = Number(row.seq);
            this.#count = Math.max(this.#count, subscriber.last);
            if (!subscriber.sink.event(subscriber.last, row.event)) {
              subscriber.alive = false;
              this.#subscribers.delete(subscriber);
              return;
            }
          }
        } while (rows.length === PAGE);
        if (ended !== undefined && subscriber.alive) {
          subscriber.alive = false;
          this.#subscribers.delete(subscriber);
          subscriber.sink.done(ended);
          return;
        }
      } while (subscriber.again && subscriber.alive);
    } catch {
      // The database went away: the client reconnects with Last-Event-ID.
      if (subscriber.alive) {
        subscriber.alive = false;
        this.#subscribers.delete(subscriber);
        subscriber.sink.done('unavailable');
      }
    } finally {
      subscriber.reading = false;
    }
  }
}
