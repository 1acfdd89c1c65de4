/** Class names of a `class` attribute; commas, spaces or both separate them (docs/semantics.md). */
export function splitClasses(value: string | undefined): string[] {
  if (!value) return [];
  return value.split(/[\s,]+/).filter((name) => name !== '');
}
