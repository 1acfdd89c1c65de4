import { entryHash, GENESIS_HASH } from './audit-chain.js';
import { type AuditEntry, AuditEntrySchema } from './audit-entry.js';

/** Why a line breaks the chain. */
export type ChainBreakReason = 'malformed' | 'edited' | 'missing' | 'inserted' | 'reordered';

/** The first line (from 1) that does not follow from the ones before it, and why. */
export interface ChainBreak {
  line: number;
  reason: ChainBreakReason;
  message: string;
}

export type ChainVerdict =
  | { ok: true; entries: AuditEntry[]; head: string }
  | { ok: false; entries: AuditEntry[]; break: ChainBreak };

/**
 * Check a trail line by line: each parses, carries the hash of its own content, and links to the line
 * before (`prev`, `seq`). Lost lines at the very end leave a shorter chain that still verifies: only a
 * head recorded elsewhere (the `head` printed here) shows them.
 */
export function verifyAuditChain(lines: readonly string[]): ChainVerdict {
  const parsed = lines.map(parseAuditLine);
  const entries: AuditEntry[] = [];
  let prev = GENESIS_HASH;
  for (const [index, entry] of parsed.entries()) {
    const line = index + 1;
    if (entry === undefined) {
      return broken(entries, line, 'malformed', 'not an audit entry (bad JSON or fields)');
    }
    if (entryHash(entry) !== entry.hash) {
      return broken(entries, line, 'edited', 'its content does not match its hash');
    }
    if (entry.seq !== line) return broken(entries, line, ...outOfPlace(entry.seq, line, parsed));
    if (entry.prev !== prev) {
      return broken(
        entries,
        line,
        'edited',
        `its prev hash is not line ${line - 1}'s: an entry before it was rewritten`,
      );
    }
    entries.push(entry);
    prev = entry.hash;
  }
  return { ok: true, entries, head: prev };
}

/** An entry numbered `seq` found on `line`: seen before, coming later, or the ones between are gone. */
function outOfPlace(
  seq: number,
  line: number,
  parsed: readonly (AuditEntry | undefined)[],
): [ChainBreakReason, string] {
  const seqs = parsed.map((e) => e?.seq);
  if (seqs.slice(0, line - 1).includes(seq)) return ['inserted', `entry ${seq} appears a second time`];
  if (seq < line || seqs.slice(line).includes(line)) {
    return ['reordered', `entry ${seq} stands where entry ${line} belongs`];
  }
  const gone = seq - line === 1 ? `entry ${line} is` : `entries ${line}–${seq - 1} are`;
  return ['missing', `${gone} missing before it`];
}

/** A stored line as an entry, or `undefined` when it is not one. */
export function parseAuditLine(line: string): AuditEntry | undefined {
  try {
    const result = AuditEntrySchema.safeParse(JSON.parse(line));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}

function broken(entries: AuditEntry[], line: number, reason: ChainBreakReason, why: string): ChainVerdict {
  return { ok: false, entries, break: { line, reason, message: `line ${line}: ${reason}: ${why}` } };
}
