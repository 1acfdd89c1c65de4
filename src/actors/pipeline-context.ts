import * as z from 'zod';
import type { ContextValues } from './handler-types.js';

/** One `appendLog` entry: kept in the checkpoint's `logs`, so it survives a resume. */
export const ContextLogEntrySchema = z
  .object({
    /** The node whose handler (or hook) appended it. */
    node: z.string(),
    /** ISO time it was appended. */
    time: z.string(),
    message: z.string(),
  })
  .catchall(z.unknown());
export type ContextLogEntry = z.infer<typeof ContextLogEntrySchema>;

/**
 * The context a handler (and a handler hook) works with.
 *
 * The pipeline machine's context is immutable (XState replaces it, never mutates it: snapshots an
 * inspector kept must stay true), so this object never writes into it. `set` and `appendLog` are
 * collected here; when the handler and its hooks are done the engine merges the collected values into
 * the outcome's `context_updates` (the outcome's own updates win) and the entries into the checkpoint's
 * `logs` — the same path every other context change takes. Reads see this handler's own writes first.
 *
 * @example
 * const handler: NodeHandler = async ({ node, context }) => {
 *   const round = Number(context.get('round', 0)) + 1;
 *   context.set('round', round);
 *   context.appendLog(`${node.id}: round ${round}`);
 *   return { status: 'success' };
 * };
 */
export class PipelineContext {
  readonly #base: Readonly<ContextValues>;
  readonly #node: string;
  #updates: ContextValues = {};
  #logs: ContextLogEntry[] = [];

  /** `values` is read, never written; `node` tags the log entries. */
  constructor(values: Readonly<ContextValues> = {}, node = '') {
    this.#base = values;
    this.#node = node;
  }

  /**
   * The value of `key` (this handler's own `set` first), else `fallback`. Objects are the stored ones,
   * not copies (a context read per node must stay cheap): treat them as read-only, `snapshot()` to edit.
   */
  get(key: string, fallback?: unknown): unknown {
    if (Object.hasOwn(this.#updates, key)) return this.#updates[key];
    return Object.hasOwn(this.#base, key) ? this.#base[key] : fallback;
  }

  /** The value of `key` as a string (objects as JSON), else `fallback` (default ""). */
  getString(key: string, fallback = ''): string {
    const value = this.get(key);
    if (value === undefined || value === null) return fallback;
    if (typeof value === 'string') return value;
    if (typeof value === 'object') return JSON.stringify(value);
    return String(value);
  }

  has(key: string): boolean {
    return Object.hasOwn(this.#updates, key) || Object.hasOwn(this.#base, key);
  }

  /** Store `value` under `key`; it reaches the pipeline's context when the node's outcome is applied. */
  set(key: string, value: unknown): void {
    this.#updates = { ...this.#updates, [key]: value };
  }

  /** `set` for several keys. */
  update(values: ContextValues): void {
    this.#updates = { ...this.#updates, ...values };
  }

  /** Append a log line (or a structured entry) to the run's log; kept in the checkpoint. */
  appendLog(entry: string | ({ message: string } & Record<string, unknown>)): void {
    const fields = typeof entry === 'string' ? { message: entry } : entry;
    this.#logs.push({ node: this.#node, time: new Date().toISOString(), ...fields });
  }

  /** Entries appended through this object so far. */
  getLogs(): ContextLogEntry[] {
    return [...this.#logs];
  }

  /** A shallow copy of every value, this handler's writes included. */
  toDict(): ContextValues {
    return { ...this.#base, ...this.#updates };
  }

  /** A deep copy of every value, this handler's writes included. */
  snapshot(): ContextValues {
    return structuredClone(this.toDict());
  }

  /** An independent deep copy (values and logs) for isolated work, such as a branch; its writes stay its own. */
  clone(): PipelineContext {
    const copy = new PipelineContext(this.snapshot(), this.#node);
    copy.#logs = structuredClone(this.#logs);
    return copy;
  }

  /** What `set`/`update` collected: merged into the outcome's `context_updates` by the engine. */
  pendingUpdates(): ContextValues {
    return this.#updates;
  }
}
