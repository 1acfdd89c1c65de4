import type { AttributeOwner } from './attribute-aliases.js';
import {
  booleanAttr,
  durationAttr,
  floatAttr,
  integerAttr,
  onOffAttr,
  positiveIntegerAttr,
  stringAttr,
} from './attribute-value-schemas.js';

/**
 * The value types an attribute can have, each tied to the one zod schema that types it, so the table's
 * word for a value and the compiler's reading of it cannot differ (test/compiler/attributes).
 */
export const VALUE_KINDS = {
  text: stringAttr,
  integer: integerAttr,
  count: positiveIntegerAttr,
  number: floatAttr,
  boolean: booleanAttr,
  duration: durationAttr,
  onOff: onOffAttr,
} as const;

export type ValueKind = keyof typeof VALUE_KINDS;

/**
 * Who reads an attribute: `schema`, the compiler's zod schemas (typed into `attrs`); `extra`, code that
 * reads it by name from a node's or the graph's extra attributes (`readExtraAttribute`); `drawing`,
 * Graphviz alone (Attractor keeps it, so a drawn pipeline looks as its author meant, and ignores it).
 */
export type AttributeReader = 'schema' | 'extra' | 'drawing';

/** One attribute the code reads: the row `attractor help attributes` prints and the editor hovers. */
export interface AttributeEntry {
  readonly name: string;
  readonly on: AttributeOwner;
  readonly value: ValueKind;
  /** Handler types of the nodes it applies to; empty for every node (and for graph and edge attributes). */
  readonly handlers: readonly string[];
  /** The values it takes when they are a closed set (completion offers them). */
  readonly values?: readonly string[];
  readonly read: AttributeReader;
  /** One paragraph: what it does, its default, where it may also be set. */
  readonly doc: string;
}

/** What an entry needs beyond its name, owner, value, handlers and doc. */
export interface EntryOptions {
  values?: readonly string[];
  read?: AttributeReader;
}

/** One row of the table: `attr('node', 'prompt', 'text', CODERGEN, 'What the agent is asked …')`. */
export function attr<N extends string>(
  on: AttributeOwner,
  name: N,
  value: ValueKind,
  handlers: readonly string[],
  doc: string,
  options: EntryOptions = {},
): AttributeEntry & { readonly name: N } {
  return { name, on, value, handlers, doc, read: options.read ?? 'schema', ...valuesOf(options) };
}

function valuesOf(options: EntryOptions): { values?: readonly string[] } {
  return options.values === undefined ? {} : { values: options.values };
}
