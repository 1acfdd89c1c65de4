import { appendFileSync } from 'node:fs';
import { LLMError } from '../errors/llm-error.js';
import type { Request, Response, StreamEvent } from '../types.js';
import type { CassetteEntry } from './cassette.js';
import type { CompleteNext, Middleware, StreamNext } from './middleware.js';

export interface RecordMiddlewareOptions {
  /** JSONL file to append to (one line per call). */
  path?: string;
  /** Or any sink for the lines. */
  write?: (line: string) => void;
  /** Keep providers' raw payloads in responses (large); off by default. */
  includeRaw?: boolean;
  /** Rewrites each entry before it is stored (e.g. machine-specific paths into placeholders). */
  transform?: (entry: CassetteEntry) => CassetteEntry;
  /** Names the caller of the current call, stored as the entry's `caller`. */
  caller?: () => string | undefined;
}

function withoutRaw<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (key, inner: unknown) => (key === 'raw' ? undefined : inner))) as T;
}

/**
 * Records every call that goes through the client (request plus response, stream events, or error) to a JSONL
 * cassette that ReplayMiddleware can play back offline.
 */
export class RecordMiddleware implements Middleware {
  readonly name = 'record';
  readonly entries: CassetteEntry[] = [];
  private readonly options: RecordMiddlewareOptions;

  constructor(options: RecordMiddlewareOptions = {}) {
    this.options = options;
  }

  async aroundComplete(request: Request, next: CompleteNext): Promise<Response> {
    try {
      const response = await next(request);
      this.save({ version: 1, kind: 'complete', request, response });
      return response;
    } catch (error) {
      if (LLMError.isLLMError(error))
        this.save({ version: 1, kind: 'complete', request, error: error.toJSON() });
      throw error;
    }
  }

  async *aroundStream(request: Request, next: StreamNext): AsyncIterable<StreamEvent> {
    const events: StreamEvent[] = [];
    let saved = false;
    try {
      for await (const event of next(request)) {
        events.push(event);
        yield event;
      }
      saved = true;
      this.save({ version: 1, kind: 'stream', request, events });
    } catch (error) {
      saved = true;
      this.save({
        version: 1,
        kind: 'stream',
        request,
        events,
        ...(LLMError.isLLMError(error) ? { error: error.toJSON() } : {}),
      });
      throw error;
    } finally {
      // The consumer stopped early: keep what it saw.
      if (!saved) this.save({ version: 1, kind: 'stream', request, events });
    }
  }

  private save(raw: CassetteEntry): void {
    const caller = this.options.caller?.();
    const entry = caller !== undefined ? { ...raw, caller } : raw;
    // Kept as is, the request would still be the caller's: its messages array may grow after the call (decision 0041).
    const plain = this.options.includeRaw
      ? { ...entry, request: { ...entry.request, messages: entry.request.messages.slice() } }
      : withoutRaw(entry);
    const stored = this.options.transform ? this.options.transform(plain) : plain;
    this.entries.push(stored);
    const line = JSON.stringify(stored);
    if (this.options.path) appendFileSync(this.options.path, `${line}\n`);
    this.options.write?.(line);
  }
}
