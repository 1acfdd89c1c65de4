import type { Tracer } from '@opentelemetry/api';
import { endNodeSpan, type PendingNode } from './pending-node.js';
import type { PinnedIdGenerator } from './pinned-id-generator.js';

/** Visits whose spans are made together once this many have ended. */
const BATCH_SIZE = 64;
/** The longest an ended visit waits for its span, when fewer visits than a batch end meanwhile. */
const BATCH_DELAY_MS = 1_000;

/**
 * Ended node visits whose spans are made together: a span made right after the engine's own work of
 * a step meets cold caches (in a run, `Tracer.startSpan` took a median 21–42 µs called at each event,
 * 5 µs called in a batch), so spans are made in runs of up to `BATCH_SIZE`, a second after the first
 * of them ended, or when the run ends. A span is exported as before, up to a second later; the
 * batching processor behind it may wait as long again.
 */
export class NodeSpanBatch {
  readonly #tracer: Tracer;
  readonly #ids: PinnedIdGenerator | undefined;
  readonly #ended: PendingNode[] = [];
  #timer: NodeJS.Timeout | undefined;

  constructor(tracer: Tracer, ids: PinnedIdGenerator | undefined) {
    this.#tracer = tracer;
    this.#ids = ids;
  }

  /** The visit has ended (at `at`, unless its `node.complete` said when). */
  add(node: PendingNode, at: number): void {
    node.completedAt ??= at;
    this.#ended.push(node);
    if (this.#ended.length >= BATCH_SIZE) this.drain();
    else if (this.#timer === undefined) {
      this.#timer = setTimeout(() => this.drain(), BATCH_DELAY_MS);
      // A trace never holds the process open: the run's end drains what is left.
      this.#timer.unref();
    }
  }

  /** Makes and ends the spans of every visit waiting. */
  drain(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const ended = this.#ended.splice(0);
    for (const node of ended) endNodeSpan(node, this.#tracer, this.#ids);
  }
}
