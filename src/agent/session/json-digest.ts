/**
 * A 32-bit number computed from JSON data such that values with the same canonical JSON text (see
 * `canonicalJson`: keys sorted, `-0` written `0`) have the same digest, whatever their key order: so two
 * values whose digests differ have different texts, and comparing them (`sameJson`) can be skipped. Equal
 * digests prove nothing. O(size of the data), O(1) per string (its length and three characters), so a tool
 * call pays it once however many calls it is compared with. `undefined` for whatever `sameJson` cannot
 * judge either (undefined, functions, non-finite numbers, holes, objects that are not plain, a `__proto__`
 * key). Pure; test/actors/agent/session/json-digest.test.ts checks it against the texts.
 */
export function jsonDigest(value: unknown): number | undefined {
  const digest = digestOf(value);
  return digest === NONE ? undefined : digest;
}

/** Not a digest: digests are 32-bit integers. */
const NONE = 0.5;

const hasOwn = Object.prototype.hasOwnProperty;

function digestOf(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return stringDigest(value);
    case 'number':
      // Finite numbers have one text each, except -0 and 0 (both "0"): both give 0 here.
      return Number.isFinite(value) ? mix(0x6e, (value | 0) ^ ((value * 4294967296) | 0)) : NONE;
    case 'boolean':
      return value ? 0x74727565 : 0x66616c73;
    case 'object':
      if (value === null) return 0x6e756c6c;
      if (Array.isArray(value)) return arrayDigest(value);
      return Object.getPrototypeOf(value) === Object.prototype
        ? objectDigest(value as Record<string, unknown>)
        : NONE;
    default:
      return NONE;
  }
}

function stringDigest(text: string): number {
  const length = text.length;
  if (length === 0) return 0x73;
  return mix(mix(mix(length, text.charCodeAt(0)), text.charCodeAt(length >> 1)), text.charCodeAt(length - 1));
}

function arrayDigest(items: readonly unknown[]): number {
  let digest = mix(0x5b, items.length);
  for (let i = 0; i < items.length; i++) {
    if (!(i in items)) return NONE;
    const item = digestOf(items[i]);
    if (item === NONE) return NONE;
    digest = mix(digest, item);
  }
  return digest;
}

/** A sum over the keys, so the order they were inserted in does not count (the canonical text sorts them). */
function objectDigest(object: Record<string, unknown>): number {
  let sum = 0;
  let keys = 0;
  for (const key in object) {
    if (!hasOwn.call(object, key)) continue;
    if (key === '__proto__') return NONE;
    const item = digestOf(object[key]);
    if (item === NONE) return NONE;
    sum = (sum + mix(stringDigest(key), item)) | 0;
    keys++;
  }
  return mix(mix(0x7b, keys), sum);
}

/** Folds `value` into `digest` (multiply-xorshift; 32-bit integers in, a 32-bit integer out). */
function mix(digest: number, value: number): number {
  const mixed = Math.imul(digest ^ value, 0x9e3779b1);
  return mixed ^ (mixed >>> 15);
}
