import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { TreeLimits } from './tree-limits.js';

/** Why a snapshot was not taken: the checkpoint says so. */
export type SnapshotSkip = 'budget' | 'too-many-files';

/** What the next snapshot would take, decided before anything is hashed. */
export interface SnapshotPlan {
  /** Files over the size limit, left out (relative to the work tree). */
  omitted: string[];
  skipped?: SnapshotSkip;
  /** Bytes of the files to hash (an upper bound of the new objects, before compression). */
  bytes: number;
}

const STAT_BATCH = 256;

/** Size of each path (0 when it is gone, or not a regular file). */
async function sizes(workTree: string, paths: readonly string[]): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < paths.length; i += STAT_BATCH) {
    const batch = paths.slice(i, i + STAT_BATCH).map(async (path) => {
      try {
        const stat = await lstat(join(workTree, path));
        return stat.isFile() ? stat.size : 0;
      } catch {
        return 0;
      }
    });
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

/**
 * Decide a snapshot from the files git would hash (new and changed ones) and how many files the tree
 * holds: too many files or too many bytes skip it; a file over the size limit is left out.
 */
export async function planSnapshot(
  workTree: string,
  changed: readonly string[],
  totalFiles: number,
  limits: TreeLimits,
): Promise<SnapshotPlan> {
  if (totalFiles > limits.maxFiles) return { omitted: [], skipped: 'too-many-files', bytes: 0 };
  const each = await sizes(workTree, changed);
  const omitted: string[] = [];
  let bytes = 0;
  each.forEach((size, i) => {
    const path = changed[i];
    if (path === undefined) return;
    if (size > limits.maxFileBytes) omitted.push(path);
    else bytes += size;
  });
  return bytes > limits.budgetBytes ? { omitted, skipped: 'budget', bytes } : { omitted, bytes };
}
