import { createHash } from 'node:crypto';
import type { AuditEntry, AuditEvent } from './audit-entry.js';

/** The `prev` of the first entry: nothing came before it. */
export const GENESIS_HASH = '0'.repeat(64);

/** Where the chain ends: what the next entry links to. */
export interface AuditHead {
  seq: number;
  hash: string;
}

export const EMPTY_HEAD: AuditHead = { seq: 0, hash: GENESIS_HASH };

/**
 * The one text an entry is hashed and stored as: JSON with its keys sorted, so the same entry is the
 * same bytes whichever code (or language) wrote it. Entries are flat, so sorting the top keys is enough.
 */
export function canonicalLine(fields: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(fields, Object.keys(fields).sort());
}

/** The hash an entry must carry: of its canonical line without `hash`. */
export function entryHash(entry: Readonly<Record<string, unknown>>): string {
  const { hash: _hash, ...content } = entry;
  return createHash('sha256').update(canonicalLine(content)).digest('hex');
}

/** `event` as the entry after `head`, at time `at`. */
export function chainEntry(event: AuditEvent, head: AuditHead, at: Date): AuditEntry {
  const content = { ...event, seq: head.seq + 1, at: at.toISOString(), prev: head.hash };
  return { ...content, hash: entryHash(content) };
}
