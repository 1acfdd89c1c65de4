/** JSON with object keys sorted at every level, so equal arguments give equal text whatever their key order. */
export function canonicalJson(value: unknown): string {
  // Tool arguments mostly arrive with their keys already in order: then there is nothing to rebuild.
  return JSON.stringify(isCanonical(value) ? value : sortKeys(value));
}

/** True when `value` holds only primitives, arrays and plain objects whose keys are already sorted. */
function isCanonical(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (Array.isArray(value)) {
    for (const item of value) if (!isCanonical(item)) return false;
    return true;
  }
  // Anything but a plain object (a Date, a class instance) takes the general path, as before.
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  let previous: string | undefined;
  for (const key in value) {
    if (previous !== undefined && !(previous < key)) return false;
    if (!isCanonical((value as Record<string, unknown>)[key])) return false;
    previous = key;
  }
  return true;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort())
    sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}
