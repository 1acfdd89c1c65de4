import { definedFields } from '../shared/defined-fields.js';
import type { AttributeList, AttributeSite, ListOwner } from './dot-outline.js';
import type { PipelineDocument } from './pipeline-document.js';

/** What the cursor is on, for completion, hover and definition. */
export type CursorContext =
  | { kind: 'key'; owner: ListOwner; nodeId?: string; site?: AttributeSite }
  | { kind: 'value'; owner: ListOwner; nodeId?: string; site: AttributeSite }
  /** A node id; `statement` when it stands alone, where a graph `name=value` may be being typed too. */
  | { kind: 'node'; id?: string; statement?: boolean }
  | { kind: 'none' };

const within = (offset: number, start: number, end: number) => offset >= start && offset <= end;

/** Where `offset` lies: an attribute's name or value (in a list or a `name=value` statement), or a node id. */
export function cursorContext(doc: PipelineDocument, offset: number): CursorContext {
  const { outline } = doc;
  const statement = outline.statements.find(
    (s) => within(offset, s.key.start, s.key.end) || (s.value && within(offset, s.value.start, s.value.end)),
  );
  if (statement) return onSite(statement, offset);
  const list = outline.lists.find((l) => offset > l.open && offset <= l.close);
  if (list) return inList(doc, list, offset);
  const mention = outline.mentions.find((m) => within(offset, m.token.start, m.token.end));
  if (mention) return { kind: 'node', id: mention.id, statement: mention.declares };
  const before = doc.text.slice(0, offset).trimEnd();
  if (before.endsWith('->') || before.endsWith('--')) return { kind: 'node' };
  return { kind: 'none' };
}

function onSite(site: AttributeSite, offset: number): CursorContext {
  const who = { owner: site.owner, ...definedFields({ nodeId: site.nodeId }) };
  if (site.value && within(offset, site.value.start, site.value.end) && offset > site.key.end) {
    return { kind: 'value', ...who, site };
  }
  return { kind: 'key', ...who, site };
}

function inList(doc: PipelineDocument, list: AttributeList, offset: number): CursorContext {
  const who = { owner: list.owner, ...definedFields({ nodeId: list.nodeId }) };
  const site = list.sites.find(
    (s) => within(offset, s.key.start, s.key.end) || (s.value && within(offset, s.value.start, s.value.end)),
  );
  if (site) return onSite(site, offset);
  // Just after `key=`: the value is being typed.
  const before = doc.text.slice(list.open, offset).trimEnd();
  const pending = [...list.sites].reverse().find((s) => s.key.end <= offset);
  if (before.endsWith('=') && pending) return { kind: 'value', ...who, site: pending };
  return { kind: 'key', ...who };
}
