import type { ExtraAttributeName } from './extra-attribute-table.js';

/**
 * The one way code reads an attribute no schema types: by a name the attribute table lists
 * (extra-attribute-table.ts), so every attribute read is in the table and `validate` knows it.
 */
export function readExtraAttribute(
  extra: Readonly<Record<string, string>> | undefined,
  name: ExtraAttributeName,
): string | undefined {
  return extra !== undefined && Object.hasOwn(extra, name) ? extra[name] : undefined;
}
