import * as z from 'zod';
import type { ContextLogEntry } from '../actors/pipeline-context.js';
import { visitCountKey } from '../compiler/routing.js';
import { VISIT_COUNT_PREFIX, type VisitCounts, valuesWithVisitsJson } from '../machines/visit-counts.js';
import type { DeepReadonly } from '../shared/deep-readonly.js';
import type { Checkpoint } from './checkpoint.js';

/** A checkpoint's fields but its context (its lists and records as the machine's context shares them, read-only). */
export type CheckpointHeader = DeepReadonly<
  Omit<Checkpoint, 'context' | 'logs'> & { logs: ContextLogEntry[] }
>;

/**
 * One checkpoint before it is text: the header, and the context in the two parts the machine keeps (the
 * values, the visit counts). The machine replaces what a step changes and shares the rest, which is what
 * lets a delta be found by comparing references rather than by serialising both sides.
 */
export interface CheckpointParts {
  header: CheckpointHeader;
  values: Readonly<Record<string, unknown>>;
  visits: VisitCounts;
}

/**
 * A checkpoint as it was when written: its parts, and the JSON text each object-valued context value had
 * then. A handler can change an object it read from the context in place, after which the previous
 * checkpoint's parts hold the changed object too: only the text taken at the time shows the change.
 */
export interface WrittenCheckpoint {
  parts: CheckpointParts;
  objectTexts: ReadonlyMap<string, string>;
}

/** Header lists a delta grows at their end. */
const LIST_FIELDS = ['completed_nodes', 'logs', 'failed_nodes'] as const;
/** Records a delta names changed keys of (the context and the header's records of small values). */
const RECORD_FIELDS = ['context', 'node_retries', 'node_outcomes', 'tree_commits', 'tree_skipped'] as const;

/**
 * A journal line that holds only what changed since the line before it (decision 0470). `~` is
 * the chain it belongs to and its place there: a chain is started by a full line whose `~` is the chain's
 * id, and each delta is one more than the line it applies to, so a reader never applies a delta to a line
 * of another writer or past a line it could not read.
 */
export const CheckpointDeltaSchema = z.object({
  '~': z.tuple([z.string(), z.number().int().positive()]),
  /** Header fields replaced. */
  set: z.record(z.string(), z.unknown()).optional(),
  /** Header fields removed. */
  unset: z.array(z.string()).optional(),
  /** Lists grown at their end. */
  push: z.partialRecord(z.enum(LIST_FIELDS), z.array(z.unknown())).optional(),
  /** Records with keys set. */
  merge: z.partialRecord(z.enum(RECORD_FIELDS), z.record(z.string(), z.unknown())).optional(),
  /** Records with keys removed. */
  drop: z.partialRecord(z.enum(RECORD_FIELDS), z.array(z.string())).optional(),
});
export type CheckpointDelta = z.infer<typeof CheckpointDeltaSchema>;

/**
 * Whether a parsed journal line is a delta of the right shape. It is then applied as parsed, not as zod
 * returns it: zod's records leave out a key named `__proto__`, which a context may hold.
 */
export function isCheckpointDelta(json: unknown): json is CheckpointDelta {
  return CheckpointDeltaSchema.safeParse(json).success;
}

/**
 * The checkpoint as the text `checkpoint.json` holds (one line). With the texts its object values had
 * when it was written, it is that checkpoint even if a handler has changed one of them in place since.
 */
export function checkpointText(parts: CheckpointParts, objectTexts?: ReadonlyMap<string, string>): string {
  const rest = JSON.stringify(parts.header);
  return `${rest.slice(0, -1)},"context":${valuesWithVisitsJson(parts.values, parts.visits, objectTexts)}}\n`;
}

/** The journal line that starts chain `chain`: the checkpoint's text with the chain's id first. */
export function chainStartText(text: string, chain: string): string {
  return `{"~":${JSON.stringify(chain)},${text.slice(1)}`;
}

/** Record a checkpoint as it is now (the texts of its object values), to diff the next one against. */
export function writtenCheckpoint(parts: CheckpointParts): WrittenCheckpoint {
  const objectTexts = new Map<string, string>();
  for (const [key, value] of Object.entries(parts.values)) {
    if (typeof value !== 'object' || value === null) continue;
    const text = JSON.stringify(value) as string | undefined;
    if (text !== undefined) objectTexts.set(key, text);
  }
  return { parts, objectTexts };
}

/**
 * What turns `prev` into `next`, as line `index` of chain `chain`; undefined when only a full line can say
 * it (the visit counts were reordered or shrank, a value sits under the visit-count prefix).
 */
export function checkpointDelta(
  prev: WrittenCheckpoint,
  next: WrittenCheckpoint,
  chain: string,
  index: number,
): CheckpointDelta | undefined {
  const before: Record<string, unknown> = prev.parts.header;
  const after: Record<string, unknown> = next.parts.header;
  const set = ownKeys();
  const push: Partial<Record<(typeof LIST_FIELDS)[number], unknown[]>> = {};
  const merge: Partial<Record<(typeof RECORD_FIELDS)[number], Record<string, unknown>>> = {};
  const drop: Partial<Record<(typeof RECORD_FIELDS)[number], string[]>> = {};
  const unset = Object.keys(before).filter(
    (field) => before[field] !== undefined && after[field] === undefined,
  );
  for (const [field, value] of Object.entries(after)) {
    const old = before[field];
    if (value === undefined) continue;
    if (isListField(field) && Array.isArray(value) && Array.isArray(old) && startsWith(value, old)) {
      if (value.length > old.length) push[field] = value.slice(old.length);
    } else if (isRecordField(field) && isRecord(value) && isRecord(old)) {
      const changes = recordChanges(old, value);
      if (changes.set) merge[field] = changes.set;
      if (changes.dropped) drop[field] = changes.dropped;
      // Other objects (`usage`, `failure`) are small and may be the same object changed in place (an
      // embedder's accounting): always written.
    } else if (value !== old || (typeof value === 'object' && value !== null)) set[field] = value;
  }
  const context = contextChanges(prev, next);
  if (!context) return undefined;
  if (context.set) merge.context = context.set;
  if (context.dropped) drop.context = context.dropped;
  return {
    '~': [chain, index],
    ...(Object.keys(set).length > 0 ? { set } : {}),
    ...(unset.length > 0 ? { unset } : {}),
    ...(Object.keys(push).length > 0 ? { push } : {}),
    ...(Object.keys(merge).length > 0 ? { merge } : {}),
    ...(Object.keys(drop).length > 0 ? { drop } : {}),
  };
}

/**
 * Apply a delta to a checkpoint object (a chain's folded state), in place; false, leaving it as it was,
 * when the delta does not fit it (a list or record it names is not one there).
 */
export function applyCheckpointDelta(state: Record<string, unknown>, delta: CheckpointDelta): boolean {
  const lists = Object.keys(delta.push ?? {});
  const records = [...Object.keys(delta.merge ?? {}), ...Object.keys(delta.drop ?? {})];
  if (!lists.every((field) => Object.hasOwn(state, field) && Array.isArray(state[field]))) return false;
  if (!records.every((field) => Object.hasOwn(state, field) && isRecord(state[field]))) return false;
  for (const field of delta.unset ?? []) delete state[field];
  assignOwn(state, delta.set ?? {});
  for (const [field, tail] of Object.entries(delta.push ?? {})) {
    const list = state[field] as unknown[];
    // One at a time: spreading a long tail into push() overflows the call stack.
    for (const item of tail) list.push(item);
  }
  for (const [field, keys] of Object.entries(delta.drop ?? {})) {
    const record = state[field] as Record<string, unknown>;
    for (const key of keys) delete record[key];
  }
  for (const [field, changed] of Object.entries(delta.merge ?? {}))
    assignOwn(state[field] as Record<string, unknown>, changed);
  return true;
}

/** `Object.assign` without setters: a context key named `__proto__` stays a key, as JSON.parse made it. */
function assignOwn(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(source))
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The keys of a record that were set (to another value) or removed; each part absent when empty. */
interface RecordChanges {
  set?: Record<string, unknown>;
  dropped?: string[];
}

/** Changes between records of small values (retries, outcomes), compared by value. */
function recordChanges(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>) {
  const set = ownKeys();
  const dropped = Object.keys(before).filter((key) => before[key] !== undefined && after[key] === undefined);
  for (const [key, value] of Object.entries(after))
    if (value !== undefined && value !== before[key]) set[key] = value;
  return changesOf(set, dropped);
}

const changesOf = (set: Record<string, unknown>, dropped: string[]): RecordChanges => ({
  ...(Object.keys(set).length > 0 ? { set } : {}),
  ...(dropped.length > 0 ? { dropped } : {}),
});

/**
 * The context's changes: values compared by reference, and object values by their text when written
 * (so a change made in place is seen); visit counts entry by entry. A value JSON leaves out (undefined,
 * a function, a symbol) counts as absent, as in the full text. Undefined when a delta cannot carry the
 * changes exactly.
 */
function contextChanges(prev: WrittenCheckpoint, next: WrittenCheckpoint): RecordChanges | undefined {
  const before = prev.parts.values;
  const after = next.parts.values;
  const set = ownKeys();
  const dropped: string[] = [];
  if (after !== before || next.objectTexts.size > 0) {
    for (const key of Object.keys(before)) {
      if (present(before, key, prev.objectTexts) && !present(after, key, next.objectTexts)) dropped.push(key);
    }
    for (const [key, value] of Object.entries(after)) {
      if (!present(after, key, next.objectTexts)) continue;
      const text = next.objectTexts.get(key);
      const changed = text !== undefined ? text !== prev.objectTexts.get(key) : value !== before[key];
      if (changed) set[key] = value;
    }
    // A value under the prefix is overridden by a count in the full text: only a full line is exact.
    if ([...dropped, ...Object.keys(set)].some((key) => key.startsWith(VISIT_COUNT_PREFIX))) return undefined;
  }
  const visits = visitChanges(prev.parts.visits, next.parts.visits, set);
  if (!visits) return undefined;
  return changesOf(set, dropped);
}

/** A value the full text holds: JSON writes it (an object's text was taken; a primitive it can write). */
function present(
  values: Readonly<Record<string, unknown>>,
  key: string,
  objectTexts: ReadonlyMap<string, string>,
) {
  const value = values[key];
  if (typeof value === 'object' && value !== null) return objectTexts.has(key);
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}

/** The counts that changed, into `set`; false when the list was reordered or shrank. */
function visitChanges(before: VisitCounts, after: VisitCounts, set: Record<string, unknown>): boolean {
  if (after === before) return true;
  if (after.length < before.length) return false;
  for (const [i, entry] of after.entries()) {
    const old = before[i];
    if (entry === old) continue;
    if (old && old[0] !== entry[0]) return false;
    set[visitCountKey(entry[0])] = entry[1];
  }
  return true;
}

/** An object whose every key is its own: a context key named `__proto__` is set, not the prototype. */
const ownKeys = (): Record<string, unknown> => Object.create(null) as Record<string, unknown>;

const isListField = (field: string): field is (typeof LIST_FIELDS)[number] =>
  (LIST_FIELDS as readonly string[]).includes(field);
const isRecordField = (field: string): field is (typeof RECORD_FIELDS)[number] =>
  field !== 'context' && (RECORD_FIELDS as readonly string[]).includes(field);

function startsWith(array: readonly unknown[], prefix: readonly unknown[]): boolean {
  if (prefix.length > array.length) return false;
  for (let i = 0; i < prefix.length; i++) if (array[i] !== prefix[i]) return false;
  return true;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
