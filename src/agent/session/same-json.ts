/**
 * Whether `canonicalJson(a) === canonicalJson(b)`, decided without building either text where that is safe:
 * `true` or `false` for plain JSON data (strings, finite numbers, booleans, null, arrays, plain objects, which
 * is what a model's tool arguments parse to), `undefined` when either holds something JSON.stringify would
 * rewrite or drop (undefined, functions, non-finite numbers, holes, objects that are not plain, a
 * `__proto__` key) — then only the texts can tell. Pure; test/actors/agent/session/same-json.test.ts checks
 * it against the texts.
 */
export function sameJson(a: unknown, b: unknown): boolean | undefined {
  const result = compare(a, b);
  return result === UNKNOWN ? undefined : result === SAME;
}

const DIFFERENT = 0;
const SAME = 1;
const UNKNOWN = 2;
type Comparison = typeof DIFFERENT | typeof SAME | typeof UNKNOWN;

const STRING = 1;
const NUMBER = 2;
const BOOLEAN = 3;
const NULL = 4;
const ARRAY = 5;
const OBJECT = 6;
const OTHER = 7;

/** The JSON kind of a value; OTHER for anything whose JSON text is not simply its own. */
function kindOf(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return STRING;
    case 'number':
      return Number.isFinite(value) ? NUMBER : OTHER;
    case 'boolean':
      return BOOLEAN;
    case 'object':
      if (value === null) return NULL;
      if (Array.isArray(value)) return ARRAY;
      return Object.getPrototypeOf(value) === Object.prototype ? OBJECT : OTHER;
    default:
      return OTHER;
  }
}

const hasOwn = Object.prototype.hasOwnProperty;

function compare(a: unknown, b: unknown): Comparison {
  if (a === b) return SAME;
  const kind = kindOf(a);
  const other = kindOf(b);
  if (kind === OTHER || other === OTHER) return UNKNOWN;
  // Texts of different JSON kinds differ in their first character; equal primitives were caught above.
  if (kind !== other || kind < ARRAY) return DIFFERENT;
  return kind === ARRAY
    ? compareArrays(a as readonly unknown[], b as readonly unknown[])
    : compareObjects(a as Record<string, unknown>, b as Record<string, unknown>);
}

function compareArrays(a: readonly unknown[], b: readonly unknown[]): Comparison {
  // JSON keeps an array's length (a hole or undefined becomes null), so different lengths are different texts.
  if (a.length !== b.length) return DIFFERENT;
  let result: Comparison = SAME;
  for (let i = 0; i < a.length; i++) {
    if (!(i in a) || !(i in b)) return UNKNOWN;
    const item = compare(a[i], b[i]);
    // One differing element is a differing text whatever the others hold.
    if (item === DIFFERENT) return DIFFERENT;
    if (item === UNKNOWN) result = UNKNOWN;
  }
  return result;
}

/**
 * Canonical texts list the own keys with their values in one order fixed by the key set, so two objects have
 * the same text exactly when they have the same keys with values of the same text. A value JSON drops
 * (undefined, a function) or a `__proto__` key (which the canonical rebuild turns into a prototype) could hide
 * a difference or a key: UNKNOWN.
 */
function compareObjects(a: Record<string, unknown>, b: Record<string, unknown>): Comparison {
  let result: Comparison = SAME;
  let keys = 0;
  for (const key in a) {
    if (!hasOwn.call(a, key)) continue;
    if (key === '__proto__') return UNKNOWN;
    keys++;
    // A key only `a` has is in `a`'s text alone, unless JSON drops its value.
    if (!hasOwn.call(b, key)) return kindOf(a[key]) === OTHER ? UNKNOWN : DIFFERENT;
    const item = compare(a[key], b[key]);
    // Equal texts would hold equal texts for each key: one differing value is a differing text.
    if (item === DIFFERENT) return DIFFERENT;
    if (item === UNKNOWN) result = UNKNOWN;
  }
  // Every key of `a` is in `b`: what is left is whether `b` has more.
  let own = 0;
  for (const key in b) {
    if (!hasOwn.call(b, key)) continue;
    own++;
    if (hasOwn.call(a, key)) continue;
    // An extra key JSON keeps is in `b`'s text alone; one it drops (or `__proto__`) leaves the question open.
    if (key !== '__proto__' && kindOf(b[key]) !== OTHER) return DIFFERENT;
  }
  return own === keys ? result : UNKNOWN;
}
