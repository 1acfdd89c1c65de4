import { createHash } from 'node:crypto';
import { join } from 'node:path';

/** Longest name a file system takes as one path segment (ext4, xfs, btrfs, APFS: 255 bytes). */
const MAX_SEGMENT_BYTES = 255;
/** What a shortened segment keeps of the name, before a hash of the whole name. */
const KEPT_PREFIX = 200;

/**
 * A name made safe as one path segment (node ids, branch ids, graph names). Only ASCII survives, so
 * its length is its size in bytes; one too long for a file system keeps its start and adds a hash of the
 * whole name, so two long ids that share a start still get folders of their own. Names that fit are
 * unchanged: a run directory written before keeps its layout.
 */
export function safeSegment(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]/g, '_') || 'pipeline';
  if (safe.length <= MAX_SEGMENT_BYTES) return safe;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 16);
  return `${safe.slice(0, KEPT_PREFIX)}-${hash}`;
}

/** Stage directory of a node; visits after the k-th loop restart go under `restart-<k>/`. */
export function stageDirFor(runDir: string, nodeId: string, restarts: number): string {
  const base = restarts > 0 ? join(runDir, `restart-${restarts}`) : runDir;
  return join(base, safeSegment(nodeId));
}
