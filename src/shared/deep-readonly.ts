/**
 * `T` with every property and element read-only, however deep (tuples keep their shape): for values that
 * are replaced, never changed in place (the pipeline machine's context, which snapshots an inspector
 * kept still share).
 */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends ReadonlyMap<infer K, infer V>
    ? ReadonlyMap<K, DeepReadonly<V>>
    : T extends object
      ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
      : T;
