import type { z } from 'zod';
import { definedFields } from '../../shared/defined-fields.js';
import type { Diagnostic } from '../diagnostic.js';
import { excerpt } from '../excerpt.js';
import type { EdgeAttrs, GraphAttrs, NodeAttrs, SourceLocation } from '../ir.js';
import type { AttributeOwner } from './attribute-aliases.js';
import { stringAttr } from './attribute-value-schemas.js';
import { edgeAttrShape } from './edge-attrs-schema.js';
import { graphAttrShape } from './graph-attrs-schema.js';
import { nodeAttrShape } from './node-attrs-schema.js';
import type { RawAttr } from './raw-attr.js';
import { unknownAttribute } from './unknown-attribute.js';

interface OwnerAttrs {
  node: NodeAttrs;
  edge: EdgeAttrs;
  graph: GraphAttrs;
}

const SHAPES: Readonly<Record<AttributeOwner, Readonly<Record<string, z.ZodType<unknown, string>>>>> = {
  node: nodeAttrShape,
  edge: edgeAttrShape,
  graph: graphAttrShape,
};

/** Whom a diagnostic is about: the fields of {@link Diagnostic} that locate it, and a phrase for messages. */
export interface AttributeSubject {
  describe: string;
  node_id?: string;
  edge?: { source: string; target: string };
}

export interface TypedAttributes<T> {
  attrs: T;
  /** Attributes with no schema, as written. */
  extra: Record<string, string>;
  /** Locations of explicitly written attributes (known and extra). */
  attrLocs: Record<string, SourceLocation>;
  /**
   * One `attribute_type` warning per value that does not fit its type (that attribute is left unset),
   * and one `attribute_unknown` per unknown name near a known one.
   */
  diagnostics: Diagnostic[];
  /** For each diagnostic, the attribute it is about (parallel array), so callers can deduplicate defaults. */
  diagnosticSources: RawAttr[];
}

/**
 * Types the raw attributes of one node, edge or graph with the zod schemas of src/compiler/attributes.
 * Never throws on user input: a wrong value becomes a warning (docs/semantics.md) and the attribute stays
 * unset; an empty value for a non-string attribute means "unset", as in Graphviz.
 */
export function typeAttributes<K extends AttributeOwner>(
  owner: K,
  raw: Iterable<RawAttr>,
  subject: AttributeSubject,
): TypedAttributes<OwnerAttrs[K]> {
  const shape = SHAPES[owner];
  const attrs: Record<string, unknown> = {};
  const extra: Record<string, string> = {};
  const attrLocs: Record<string, SourceLocation> = {};
  const diagnostics: Diagnostic[] = [];
  const diagnosticSources: RawAttr[] = [];
  for (const attr of raw) {
    const schema = Object.hasOwn(shape, attr.key) ? shape[attr.key] : undefined;
    if (attr.explicit) attrLocs[attr.key] = attr.loc;
    if (!schema) {
      extra[attr.key] = attr.value;
      const unknown = unknownAttribute(owner, attr, subject);
      if (unknown) {
        diagnostics.push(unknown);
        diagnosticSources.push(attr);
      }
      continue;
    }
    // Most attributes are plain strings, which z.string() returns as they are; zod's safeParse per
    // value is a visible share of `attractor validate` on a large pipeline (bench/validate.mjs).
    if (schema === stringAttr) {
      attrs[attr.key] = attr.value;
      continue;
    }
    if (attr.value.trim() === '' && schema.description !== undefined) continue;
    const parsed = schema.safeParse(attr.value);
    if (parsed.success) {
      attrs[attr.key] = parsed.data;
      continue;
    }
    const expected = schema.description ?? 'a string';
    diagnostics.push({
      rule: 'attribute_type',
      severity: 'warning',
      message:
        `${subject.describe}: ${attr.key}=${JSON.stringify(excerpt(attr.value))} is not ${expected}; ` +
        'the attribute is ignored.',
      ...definedFields({ node_id: subject.node_id, edge: subject.edge }),
      fix: `Write ${attr.key} as ${expected}.`,
      loc: attr.loc,
    });
    diagnosticSources.push(attr);
  }
  return { attrs: attrs as OwnerAttrs[K], extra, attrLocs, diagnostics, diagnosticSources };
}
