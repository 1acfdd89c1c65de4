import { readFileSync } from 'node:fs';
import { LLMError } from '../errors/llm-error.js';
import { reviveLLMError } from '../errors/revive-llm-error.js';
import type { Request, Response, StreamEvent } from '../types.js';
import { type CassetteEntry, canonicalJson, parseCassette } from './cassette.js';
import type { Middleware } from './middleware.js';

export interface ReplayMiddlewareOptions {
  /** A cassette written by RecordMiddleware. */
  path?: string;
  entries?: CassetteEntry[];
  /** What of a request must match (applied to recorded and live requests alike); default: all of it. */
  matchKey?: (request: Request) => unknown;
  /** Rewrites a matched entry before it answers (e.g. placeholders back into this machine's paths). */
  transform?: (entry: CassetteEntry) => CassetteEntry;
  /** Names the caller of the current call, for mismatch messages. */
  caller?: () => string | undefined;
}

/** The first place two JSON values differ, as a path like `messages[1].content[0].text`. */
function firstDifference(a: unknown, b: unknown, path = ''): string | undefined {
  if (canonicalJson(a) === canonicalJson(b)) return undefined;
  if (
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    a === null ||
    b === null ||
    Array.isArray(a) !== Array.isArray(b)
  ) {
    return path || '(root)';
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of [...keys].sort()) {
    const next = Array.isArray(a) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
    const found = firstDifference(
      (a as Record<string, unknown>)[key],
      (b as Record<string, unknown>)[key],
      next,
    );
    if (found) return found;
  }
  return path || '(root)';
}

/**
 * Answers calls from a cassette, offline: each call takes the first unused recorded entry of the same kind with
 * an identical request (so concurrent calls may arrive in any order). A call with no match fails with
 * `llm.replay_mismatch`, naming the first field that differs from the next unused entry.
 */
export class ReplayMiddleware implements Middleware {
  readonly name = 'replay';
  private readonly entries: CassetteEntry[];
  private readonly options: ReplayMiddlewareOptions;
  private readonly used = new Set<number>();
  private calls = 0;

  constructor(options: ReplayMiddlewareOptions) {
    this.options = options;
    if (options.entries) this.entries = options.entries;
    else if (options.path) this.entries = parseCassette(readFileSync(options.path, 'utf8'), options.path);
    else throw new TypeError('ReplayMiddleware needs `path` or `entries`.');
  }

  /** Recorded calls not replayed yet. */
  get remaining(): number {
    return this.entries.length - this.used.size;
  }

  async aroundComplete(request: Request): Promise<Response> {
    const entry = this.take('complete', request);
    if (entry.error) throw reviveLLMError(entry.error);
    if (!entry.response) throw this.mismatch('the recorded call has no response', request);
    return entry.response;
  }

  async *aroundStream(request: Request): AsyncIterable<StreamEvent> {
    const entry = this.take('stream', request);
    for (const event of entry.events ?? []) yield event;
    if (entry.error) throw reviveLLMError(entry.error);
  }

  private take(kind: CassetteEntry['kind'], request: Request): CassetteEntry {
    this.calls++;
    const key = this.options.matchKey ?? ((r: Request) => r);
    const live = key(request);
    const wanted = canonicalJson(live);
    const caller = this.options.caller?.();
    const unused = (entry: CassetteEntry, i: number) => !this.used.has(i) && entry.kind === kind;
    // Same caller first: parallel branches may call in any order, and a caller's own calls are in sequence.
    const sameCaller = (entry: CassetteEntry) => caller === undefined || entry.caller === caller;
    const matches = (entry: CassetteEntry, i: number) =>
      unused(entry, i) && canonicalJson(key(entry.request)) === wanted;
    let index = this.entries.findIndex((entry, i) => matches(entry, i) && sameCaller(entry));
    if (index < 0) index = this.entries.findIndex(matches);
    if (index >= 0) {
      this.used.add(index);
      const entry = this.entries[index]!;
      return this.options.transform ? this.options.transform(entry) : entry;
    }
    let nextIndex = this.entries.findIndex((entry, i) => unused(entry, i) && sameCaller(entry));
    if (nextIndex < 0) nextIndex = this.entries.findIndex(unused);
    if (nextIndex < 0) throw this.mismatch(`the cassette has no unused ${kind} call left`, request, caller);
    const recorded = this.entries[nextIndex]!;
    const where = firstDifference(key(recorded.request), live);
    const by = recorded.caller !== undefined ? ` (by ${recorded.caller})` : '';
    throw this.mismatch(
      `it differs from recorded ${kind} call #${nextIndex + 1}${by} at \`${where}\``,
      request,
      caller,
    );
  }

  private mismatch(reason: string, request: Request, caller?: string): LLMError {
    const who = caller !== undefined ? ` of ${caller}` : '';
    return new LLMError(
      'llm.replay_mismatch',
      `Replay: call #${this.calls}${who} (model ${request.model}) does not match the cassette: ${reason}.`,
    );
  }
}
