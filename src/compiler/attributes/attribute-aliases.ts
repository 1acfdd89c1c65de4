/** Which kind of DOT statement an attribute belongs to. */
export type AttributeOwner = 'node' | 'edge' | 'graph';

/**
 * Alternative spellings found in real pipeline files (docs/semantics.md S10),
 * mapped to the canonical key. Aliases are resolved before merging, so `model=a` then `llm_model=b`
 * is one attribute whose later value wins.
 */
export const ATTRIBUTE_ALIASES: Readonly<Record<AttributeOwner, Readonly<Record<string, string>>>> = {
  node: { model: 'llm_model', provider: 'llm_provider', retry_preset: 'retry_policy', classes: 'class' },
  edge: {},
  graph: { default_max_retry: 'default_max_retries' },
};

export function canonicalAttrKey(owner: AttributeOwner, key: string): string {
  return Object.hasOwn(ATTRIBUTE_ALIASES[owner], key) ? ATTRIBUTE_ALIASES[owner][key]! : key;
}
