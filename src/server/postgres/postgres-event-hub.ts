import type pg from 'pg';
import type { PipelineEvent } from '../../shared/pipeline-event.js';
import type { EventSink } from '../run-event-hub.js';

const PAGE = 500;
/** Recent events kept for subscribers joining a run that others already follow. */
const RING_SIZE = 2_000;

type Row = { seq: number; event: PipelineEvent };

interface Subscriber {
  sink: EventSink;
  last: number;
  /** Reading its own replay from the table; hears the shared stream once it has caught up. */
  replaying: boolean;
  again: boolean;
  alive: boolean;
}

/**
 * One run's events as any server reads them from PostgreSQL: ids are the events' sequence numbers
 * there, so `Last-Event-ID` works against any server. The run's subscribers that have caught up share
 * one stream: what the executor's NOTIFY carries, or else one read of the table per burst of
 * notifications, whatever their number; the newest events are kept in a ring for those joining. A
 * subscriber further behind replays with its own reads, then joins. The stream ends once the run has
 * ended and every event was sent.
 */
export class PostgresEventHub {
  readonly #pool: pg.Pool;
  readonly #runId: string;
  readonly #ended: () => string | undefined;
  readonly #subscribers = new Set<Subscriber>();
  /** The newest event of the shared stream; undefined while no subscriber follows it. */
  #head: number | undefined;
  #ring: Row[] = [];
  #count: number;
  #fetching: Promise<void> | undefined;
  #fetchAgain = false;

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

  /**
   * The run's executor committed events up to `seq` (`events`, when given, are `first`…`seq`), or its
   * status changed: send what is new.
   */
  changed(seq?: number, first?: number, events?: readonly PipelineEvent[]): void {
    if (seq !== undefined) this.#count = Math.max(this.#count, seq);
    if (this.#head === undefined) return;
    if (events && first !== undefined && first <= this.#head + 1)
      this.#append(events.map((event, i) => ({ seq: first + i, event })));
    if (this.#count > this.#head || (seq === undefined && this.#ended() !== undefined)) void this.#fetch();
  }

  subscribe(afterId: number, sink: EventSink): () => void {
    const subscriber: Subscriber = { sink, last: afterId, replaying: true, again: false, alive: true };
    this.#subscribers.add(subscriber);
    void this.#replay(subscriber);
    return () => this.#drop(subscriber);
  }

  /** One read of the table for every subscriber following the shared stream. */
  #fetch(): Promise<void> {
    if (this.#fetching) {
      this.#fetchAgain = true;
      return this.#fetching;
    }
    this.#fetching = this.#fetchRows().finally(() => {
      this.#fetching = undefined;
    });
    return this.#fetching;
  }

  async #fetchRows(): Promise<void> {
    try {
      do {
        this.#fetchAgain = false;
        // Read before the rows: an end seen now comes after every event it could have followed.
        const ended = this.#ended();
        let rows: Row[];
        do {
          if (this.#head === undefined) return;
          rows = await this.#read(this.#head);
          this.#append(rows);
        } while (rows.length === PAGE);
        if (ended !== undefined) {
          for (const subscriber of this.#subscribers) {
            if (!subscriber.replaying) this.#finish(subscriber, ended);
          }
        }
      } while (this.#fetchAgain);
    } catch {
      this.#unavailable((subscriber) => !subscriber.replaying);
    }
  }

  /** Send `rows` (in order, from any point) to the shared stream's subscribers and keep them. */
  #append(rows: readonly Row[]): void {
    for (const row of rows) {
      if (this.#head === undefined || row.seq !== this.#head + 1) continue;
      this.#head = row.seq;
      this.#count = Math.max(this.#count, row.seq);
      this.#ring.push(row);
      if (this.#ring.length > RING_SIZE) this.#ring.shift();
      for (const subscriber of this.#subscribers) {
        if (!subscriber.replaying) this.#send(subscriber, row);
      }
    }
  }

  /** Catch `subscriber` up on its own reads, then from the ring, and join the shared stream. */
  async #replay(subscriber: Subscriber): Promise<void> {
    try {
      for (;;) {
        const ended = this.#ended();
        const fromRing = this.#fromRing(subscriber.last);
        if (fromRing) {
          for (const row of fromRing) this.#send(subscriber, row);
          if (!subscriber.alive) return;
          subscriber.replaying = false;
          // A fetch in flight may already have read past the end it saw: ask again for the end.
          if (ended !== undefined || this.#count > (this.#head ?? 0)) void this.#fetch();
          return;
        }
        const rows = await this.#read(subscriber.last);
        for (const row of rows) this.#send(subscriber, row);
        if (!subscriber.alive) return;
        if (rows.length === PAGE || this.#fromRing(subscriber.last)) continue;
        if (ended !== undefined) return this.#finish(subscriber, ended);
        if (this.#head === undefined) {
          // The first to follow this run: the shared stream starts where it stands.
          this.#head = subscriber.last;
          this.#ring = [];
          subscriber.replaying = false;
          if (this.#count > this.#head) void this.#fetch();
          return;
        }
        // The shared stream is behind this read: wait for it to catch up, then join from the ring.
        await this.#fetch();
      }
    } catch {
      if (subscriber.alive) this.#unavailable((s) => s === subscriber);
    }
  }

  /** The ring from `after` on, when it holds `after + 1` (or `after` is its newest). */
  #fromRing(after: number): Row[] | undefined {
    if (this.#head === undefined || after > this.#head) return undefined;
    const start = this.#head - this.#ring.length;
    if (after < start) return undefined;
    return this.#ring.slice(after - start);
  }

  #send(subscriber: Subscriber, row: Row): void {
    if (!subscriber.alive || row.seq <= subscriber.last) return;
    subscriber.last = row.seq;
    if (!subscriber.sink.event(row.seq, row.event)) this.#drop(subscriber);
  }

  async #read(after: number): Promise<Row[]> {
    const { rows } = await this.#pool.query<{ seq: string; event: PipelineEvent }>(
      'SELECT seq, event FROM attractor.events WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3',
      [this.#runId, after, PAGE],
    );
    const read = rows.map((row) => ({ seq: Number(row.seq), event: row.event }));
    const newest = read.at(-1);
    if (newest) this.#count = Math.max(this.#count, newest.seq);
    return read;
  }

  #finish(subscriber: Subscriber, status: string): void {
    if (!subscriber.alive) return;
    this.#drop(subscriber);
    subscriber.sink.done(status);
  }

  /** The database went away: those subscribers reconnect with Last-Event-ID. */
  #unavailable(which: (subscriber: Subscriber) => boolean): void {
    for (const subscriber of this.#subscribers) {
      if (which(subscriber)) this.#finish(subscriber, 'unavailable');
    }
  }

  #drop(subscriber: Subscriber): void {
    subscriber.alive = false;
    this.#subscribers.delete(subscriber);
    if (this.#subscribers.size > 0) return;
    // Nobody follows the run: its ring is not kept, the next subscriber starts the stream again.
    this.#head = undefined;
    this.#ring = [];
  }
}
