import { definedFields } from '../../shared/defined-fields.js';
import { closest } from '../closest-name.js';
import type { Diagnostic } from '../diagnostic.js';
import type { AttributeOwner } from './attribute-aliases.js';
import { findAttribute, knownAttributeNames } from './attribute-table.js';
import type { RawAttr } from './raw-attr.js';

/** Whom the finding is about, as `typeAttributes` says it. */
export interface UnknownAttributeSubject {
  describe: string;
  node_id?: string;
  edge?: { source: string; target: string };
}

/**
 * `attribute_unknown`: an attribute the table does not know, written near enough to one it does to be
 * a misspelling (`promt` → `prompt`). Names far from every known one are left alone: they are extra
 * attributes for custom handlers and interviewers (a gate's `ui.hint` reaches them as metadata).
 */
export function unknownAttribute(
  owner: AttributeOwner,
  attr: RawAttr,
  subject: UnknownAttributeSubject,
): Diagnostic | undefined {
  if (findAttribute(owner, attr.key)) return undefined;
  const near = closest(attr.key, knownAttributeNames(owner));
  if (near === undefined) return undefined;
  // A `node [...]` default is about every node that inherits it, not the first one typed.
  const who = attr.explicit ? subject : { describe: `The ${owner} [...] default` };
  return {
    rule: 'attribute_unknown',
    severity: 'warning',
    message:
      `${who.describe}: unknown ${owner} attribute "${attr.key}" (did you mean "${near}"?); ` +
      'it is kept only as an extra attribute.',
    ...definedFields({ node_id: who.node_id, edge: who.edge }),
    fix: `Rename ${attr.key} to ${near} (attractor help attributes lists them all).`,
    edits: [{ loc: attr.loc, find: attr.key, replace: near }],
    loc: attr.loc,
  };
}
