import { visitCountKey } from '../compiler/routing.js';

/**
 * Visits per node, `[node id, visits]` in first-visit order. The pipeline context publishes them as
 * `internal.visit_count.<node>` values (conditions, handlers, checkpoints and results see them there),
 * but the machine keeps them beside the values: counting a visit then copies a list of references
 * instead of a values object holding a key for every node ever visited, which on a 1,000-node run cost
 * more than the rest of a step (V8 copies an object of a thousand keys key by key).
 */
export type VisitCounts = readonly (readonly [string, number])[];

/** The key prefix of the counts among the values (`visitCountKey(id)` is this plus the node id). */
export const VISIT_COUNT_PREFIX = visitCountKey('');

/** The node's recorded visits, undefined when it has no count. */
export function visitsOf(visits: VisitCounts, nodeId: string): number | undefined {
  for (const [id, n] of visits) if (id === nodeId) return n;
  return undefined;
}

/** The counts with one more visit of `nodeId`; the input is left as it was. */
export function countVisit(visits: VisitCounts, nodeId: string): VisitCounts {
  return setVisits(visits, [[nodeId, (visitsOf(visits, nodeId) ?? 0) + 1]]);
}

/** The counts with each of `updates` set (a handler's `internal.visit_count.*` write, a branch's counts). */
export function setVisits(visits: VisitCounts, updates: VisitCounts): VisitCounts {
  if (updates.length === 0) return visits;
  const next = visits.slice();
  for (const [nodeId, n] of updates) {
    const at = next.findIndex(([id]) => id === nodeId);
    if (at < 0) next.push([nodeId, n]);
    else next[at] = [nodeId, n];
  }
  return next;
}

/** Values that carry `internal.visit_count.*` keys (a checkpoint's context, a branch's start) split in two. */
export function splitVisitCounts(values: Readonly<Record<string, unknown>>): {
  values: Record<string, unknown>;
  visits: VisitCounts;
} {
  const rest: Record<string, unknown> = {};
  const visits: [string, number][] = [];
  for (const [key, value] of Object.entries(values)) {
    const n = Number(value);
    if (key.startsWith(VISIT_COUNT_PREFIX) && Number.isFinite(n))
      visits.push([key.slice(VISIT_COUNT_PREFIX.length), n]);
    else rest[key] = value;
  }
  return { values: rest, visits };
}

/** The values as a plain object with the visit counts in them: what checkpoints and results store. */
export function valuesWithVisits(
  values: Readonly<Record<string, unknown>>,
  visits: VisitCounts,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...values };
  for (const [id, n] of visits) merged[visitCountKey(id)] = n;
  return merged;
}

/** Each entry's JSON member text; entries are immutable and shared from step to step, so most hit. */
const memberText = new WeakMap<readonly [string, number], string>();

/**
 * `JSON.stringify(valuesWithVisits(values, visits))`, without the merged object: a checkpoint per step
 * of a 1,000-node run would otherwise copy a thousand keys into a new object before serialising it.
 * With `objectTexts`, object values are written as the texts given (the checkpoint writer's, taken when
 * the checkpoint was recorded: a handler may have changed the object in place since).
 */
export function valuesWithVisitsJson(
  values: Readonly<Record<string, unknown>>,
  visits: VisitCounts,
  objectTexts?: ReadonlyMap<string, string>,
): string {
  const json = (record: Readonly<Record<string, unknown>>): string =>
    objectTexts && objectTexts.size > 0 ? recordedJson(record, objectTexts) : JSON.stringify(record);
  // Rare: a non-numeric value kept under the prefix, which a count may override: the plain way.
  if (visits.length === 0 || Object.keys(values).some((key) => key.startsWith(VISIT_COUNT_PREFIX)))
    return json(valuesWithVisits(values, visits));
  const members = visits.map((entry) => {
    let text = memberText.get(entry);
    if (text === undefined) {
      text = `${JSON.stringify(visitCountKey(entry[0]))}:${JSON.stringify(entry[1])}`;
      memberText.set(entry, text);
    }
    return text;
  });
  const base = json(values);
  return base === '{}' ? `{${members.join(',')}}` : `${base.slice(0, -1)},${members.join(',')}}`;
}

/** `JSON.stringify(record)` with each object value written as `objectTexts` has it (absent: left out). */
function recordedJson(record: Readonly<Record<string, unknown>>, objectTexts: ReadonlyMap<string, string>) {
  const members: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    const text =
      typeof value === 'object' && value !== null
        ? objectTexts.get(key)
        : (JSON.stringify(value) as string | undefined);
    if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${members.join(',')}}`;
}

/**
 * The same keys as `valuesWithVisits`, as a read-only view made in constant time: routing and the
 * handler's context read a few keys per node, so they need not copy every count. Writing throws.
 */
export function visitValuesView(
  values: Readonly<Record<string, unknown>>,
  // Undefined in the handler input of a snapshot persisted before the counts moved (restored as is).
  visits: VisitCounts | undefined,
): Readonly<Record<string, unknown>> {
  if (!visits || visits.length === 0) return values;
  const countFor = (key: string | symbol): number | undefined => {
    if (typeof key !== 'string' || !key.startsWith(VISIT_COUNT_PREFIX)) return undefined;
    return visitsOf(visits, key.slice(VISIT_COUNT_PREFIX.length));
  };
  return new Proxy(values as Record<string, unknown>, {
    get: (target, key) => countFor(key) ?? Reflect.get(target, key),
    has: (target, key) => countFor(key) !== undefined || Reflect.has(target, key),
    getOwnPropertyDescriptor(target, key) {
      const n = countFor(key);
      if (n === undefined) return Reflect.getOwnPropertyDescriptor(target, key);
      return { value: n, writable: true, enumerable: true, configurable: true };
    },
    ownKeys(target) {
      const keys = Reflect.ownKeys(target);
      for (const [id] of visits) {
        const key = visitCountKey(id);
        if (!Object.hasOwn(target, key)) keys.push(key);
      }
      return keys;
    },
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });
}
