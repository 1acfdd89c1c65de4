import { z } from 'zod';
import type { ContextLogEntry } from '../actors/pipeline-context.js';
import { visitCountKey } from '../compiler/routing.js';
import type { Checkpoint } from './checkpoint.js';
import { type VisitCounts, valuesWithVisitsJson } from './visit-counts.js';

/** A checkpoint's fields but its context (its lists as the machine's context shares them, read-only). */
export type CheckpointHeader = Omit<Checkpoint, 'context' | 'logs'> & { logs: readonly ContextLogEntry[] };

/**
 * One checkpoint before it is text: the header, and the context in the two parts the machine keeps (the
 * values, the visit counts). The parts are immutable snapshots shared from step to step, which is what
 * lets a delta be found by comparing references rather than by serialising both sides.
 */
export interface CheckpointParts {
  header: CheckpointHeader;
  values: Readonly<Record<string, unknown>>;
  visits: VisitCounts;
}

/**
 * A journal line that holds only what changed since the line before it (docs/decisions.md D27.1). `~` is
 * its place in its chain: the full checkpoint line that starts a chain is 0, and each delta is one more
 * than the line it applies to, so a reader never applies a delta to the wrong checkpoint.
 */
export const CheckpointDeltaSchema = z.object({
  '~': z.number().int().positive(),
  /** Header fields replaced. */
  set: z.record(z.string(), z.unknown()).optional(),
  /** Header fields removed. */
  unset: z.array(z.string()).optional(),
  /** Array fields (completed_nodes, logs, failed_nodes) grown at their end. */
  push: z.record(z.string(), z.array(z.unknown())).optional(),
  /** Record fields (context, node_retries, node_outcomes) with keys set. */
  merge: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  /** Record fields with keys removed. */
  drop: z.record(z.string(), z.array(z.string())).optional(),
});
export type CheckpointDelta = z.infer<typeof CheckpointDeltaSchema>;

/**
 * Whether a parsed journal line is a delta of the right shape. It is then applied as parsed, not as zod
 * returns it: zod's records leave out a key named `__proto__`, which a context may hold.
 */
export function isCheckpointDelta(json: unknown): json is CheckpointDelta {
  return CheckpointDeltaSchema.safeParse(json).success;
}

/** Header fields that are records of small values: a delta names the keys that changed. */
const RECORD_FIELDS = new Set(['node_retries', 'node_outcomes']);

const VISIT_PREFIX = 'internal.visit_count.';

/** The checkpoint as the text `checkpoint.json` and a chain's first journal line hold (one line). */
export function checkpointText(parts: CheckpointParts): string {
  const rest = JSON.stringify(parts.header);
  return `${rest.slice(0, -1)},"context":${valuesWithVisitsJson(parts.values, parts.visits)}}\n`;
}

/**
 * What turns `prev` into `next`, as the line at `index` of its chain; undefined when only a full line can
 * say it (the visit counts were reordered or shrank, a value sits under the visit-count prefix).
 */
export function checkpointDelta(
  prev: CheckpointParts,
  next: CheckpointParts,
  index: number,
): CheckpointDelta | undefined {
  const before: Record<string, unknown> = prev.header;
  const after: Record<string, unknown> = next.header;
  const set = ownKeys();
  const push: Record<string, unknown[]> = {};
  const merge: Record<string, Record<string, unknown>> = {};
  const drop: Record<string, string[]> = {};
  const unset = Object.keys(before).filter(
    (field) => before[field] !== undefined && after[field] === undefined,
  );
  for (const [field, value] of Object.entries(after)) {
    const old = before[field];
    if (value === undefined || value === old) continue;
    if (Array.isArray(value) && Array.isArray(old) && startsWith(value, old)) {
      if (value.length > old.length) push[field] = value.slice(old.length);
    } else if (RECORD_FIELDS.has(field) && isRecord(value) && isRecord(old)) {
      const changes = recordChanges(old, value);
      if (changes.set) merge[field] = changes.set;
      if (changes.dropped) drop[field] = changes.dropped;
    } else set[field] = value;
  }
  const context = contextChanges(prev, next);
  if (!context) return undefined;
  if (context.set) merge['context'] = context.set;
  if (context.dropped) drop['context'] = context.dropped;
  return {
    '~': index,
    ...(Object.keys(set).length > 0 ? { set } : {}),
    ...(unset.length > 0 ? { unset } : {}),
    ...(Object.keys(push).length > 0 ? { push } : {}),
    ...(Object.keys(merge).length > 0 ? { merge } : {}),
    ...(Object.keys(drop).length > 0 ? { drop } : {}),
  };
}

/** Apply a delta to a checkpoint object (a chain's folded state), in place; false when it does not fit. */
export function applyCheckpointDelta(state: Record<string, unknown>, delta: CheckpointDelta): boolean {
  const arrays = Object.keys(delta.push ?? {});
  const records = [...Object.keys(delta.merge ?? {}), ...Object.keys(delta.drop ?? {})];
  if (!arrays.every((field) => Array.isArray(state[field]))) return false;
  if (!records.every((field) => isRecord(state[field]))) return false;
  for (const field of delta.unset ?? []) delete state[field];
  assignOwn(state, delta.set ?? {});
  for (const [field, tail] of Object.entries(delta.push ?? {})) (state[field] as unknown[]).push(...tail);
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
 * The context's changes, from the values (compared key by key) and the visit counts (entry by entry);
 * undefined when a delta cannot carry them exactly.
 */
function contextChanges(prev: CheckpointParts, next: CheckpointParts): RecordChanges | undefined {
  const changes = next.values === prev.values ? {} : recordChanges(prev.values, next.values);
  // A value under the prefix is overridden by a count in the full text: only a full line is exact.
  const touched = [...(changes.dropped ?? []), ...Object.keys(changes.set ?? {})];
  if (touched.some((key) => key.startsWith(VISIT_PREFIX))) return undefined;
  if (next.visits === prev.visits) return changes;
  if (next.visits.length < prev.visits.length) return undefined;
  const set = changes.set ?? ownKeys();
  for (const [i, entry] of next.visits.entries()) {
    const old = prev.visits[i];
    if (entry === old) continue;
    if (old && old[0] !== entry[0]) return undefined;
    set[visitCountKey(entry[0])] = entry[1];
  }
  return changesOf(set, changes.dropped ?? []);
}

/** An object whose every key is its own: a context key named `__proto__` is set, not the prototype. */
const ownKeys = (): Record<string, unknown> => Object.create(null) as Record<string, unknown>;

function startsWith(array: readonly unknown[], prefix: readonly unknown[]): boolean {
  if (prefix.length > array.length) return false;
  for (let i = 0; i < prefix.length; i++) if (array[i] !== prefix[i]) return false;
  return true;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
