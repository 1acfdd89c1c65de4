import { ATTRIBUTE_ALIASES, type AttributeOwner } from './attribute-aliases.js';
import type { AttributeEntry } from './attribute-entry.js';
import { DRAWING_ATTRIBUTES } from './drawing-attribute-table.js';
import { EDGE_ATTRIBUTES } from './edge-attribute-table.js';
import { EXTRA_ATTRIBUTES } from './extra-attribute-table.js';
import { GRAPH_ATTRIBUTES } from './graph-attribute-table.js';
import { NODE_ATTRIBUTES } from './node-attribute-table.js';

/**
 * Every attribute the code reads, one typed row each (`attractor help attributes` prints it; the
 * language server hovers and completes from it; `attribute_unknown` suggests from it). The compiler's
 * zod schemas and the table are checked against each other by test/compiler/attributes.
 */
export const ATTRIBUTE_TABLE: readonly AttributeEntry[] = [
  ...GRAPH_ATTRIBUTES,
  ...NODE_ATTRIBUTES,
  ...EDGE_ATTRIBUTES,
  ...EXTRA_ATTRIBUTES,
  ...DRAWING_ATTRIBUTES,
];

const byOwner = new Map<AttributeOwner, Map<string, AttributeEntry>>();

function ownerIndex(on: AttributeOwner): Map<string, AttributeEntry> {
  let index = byOwner.get(on);
  if (!index) {
    index = new Map(ATTRIBUTE_TABLE.filter((entry) => entry.on === on).map((entry) => [entry.name, entry]));
    byOwner.set(on, index);
  }
  return index;
}

/** The row of `name` on a graph, node or edge, aliases resolved (`model` is `llm_model`). */
export function findAttribute(on: AttributeOwner, name: string): AttributeEntry | undefined {
  const canonical = Object.hasOwn(ATTRIBUTE_ALIASES[on], name) ? ATTRIBUTE_ALIASES[on][name] : name;
  return canonical === undefined ? undefined : ownerIndex(on).get(canonical);
}

/** The rows of a graph, node or edge; for a node, only those that apply to its handler type. */
export function attributesFor(on: AttributeOwner, handler?: string): AttributeEntry[] {
  return [...ownerIndex(on).values()].filter(
    (entry) => handler === undefined || entry.handlers.length === 0 || entry.handlers.includes(handler),
  );
}

/** Every name a graph, node or edge may carry: the table's rows and the aliases. */
export function knownAttributeNames(on: AttributeOwner): string[] {
  return [...ownerIndex(on).keys(), ...Object.keys(ATTRIBUTE_ALIASES[on])];
}
