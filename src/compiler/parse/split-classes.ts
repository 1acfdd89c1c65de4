/** Class names of a `class` attribute; commas, spaces or both separate them (DECISIONS §10). */
export function splitClasses(value: string | undefined): string[] {
  if (!value) return [];
  return value.split(/[\s,]+/).filter((name) => name !== '');
}
