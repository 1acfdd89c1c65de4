import { type IdGenerator, RandomIdGenerator } from '@opentelemetry/sdk-trace-node';
import type { RootIds } from './trace-ids.js';

/**
 * Random ids, except where pinned just around a `startSpan` (the SDK asks for a span's id, and a root's
 * trace id, synchronously inside it, each once): a run's root span, so a later execution can link to it
 * by the run's id alone (`rootIdsOf`); a node's span, whose id its children named before it was made.
 */
export class PinnedIdGenerator implements IdGenerator {
  // The SDK's own: a crypto call per span id costs a traced step several percent of its CPU.
  readonly #random = new RandomIdGenerator();
  #traceId: string | undefined;
  #spanId: string | undefined;

  /** Runs `start` with the next trace id and the next span id taken from `ids`. */
  withRootIds<T>(ids: RootIds, start: () => T): T {
    this.#traceId = ids.traceId;
    this.#spanId = ids.spanId;
    try {
      return start();
    } finally {
      this.#traceId = undefined;
      this.#spanId = undefined;
    }
  }

  /** Runs `start` with the next span id set to `spanId` (a child span whose id was handed out before it was made). */
  withSpanId<T>(spanId: string, start: () => T): T {
    this.#spanId = spanId;
    try {
      return start();
    } finally {
      this.#spanId = undefined;
    }
  }

  generateTraceId(): string {
    const pinned = this.#traceId;
    this.#traceId = undefined;
    return pinned ?? this.#random.generateTraceId();
  }

  generateSpanId(): string {
    const pinned = this.#spanId;
    this.#spanId = undefined;
    return pinned ?? this.#random.generateSpanId();
  }
}
