/** `fields` without the ones whose value is undefined: each may be absent, none is present as undefined. */
export type DefinedFields<T> = { [K in keyof T]?: Exclude<T[K], undefined> };

/**
 * The fields whose value is not undefined, for spreading optional fields into an object:
 * `{ outcome, ...definedFields({ llmChoice, tree }) }`. An absent field is not one set to undefined (it
 * does not override a default in a later spread, `in` and `Object.keys` do not see it, it satisfies
 * `exactOptionalPropertyTypes`). The one idiom for optional fields (decision 0480).
 */
export function definedFields<T extends object>(fields: T): DefinedFields<T> {
  const kept: Partial<Record<keyof T, unknown>> = {};
  for (const key in fields) if (fields[key] !== undefined) kept[key] = fields[key];
  // What the loop kept is T's fields minus the undefined values: the mapped type says exactly that.
  return kept as DefinedFields<T>;
}
