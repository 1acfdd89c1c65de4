import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { git } from './git-command.js';
import { readRefFile, START_REF, TREE_GIT_DIR } from './tree-git-dir.js';

export interface SnapshotDiffOptions {
  /** One snapshot's changes (against the one before it); none: the whole run's, from its start to `to`. */
  commit?: string;
  /** The end of a whole run's diff (default: the newest snapshot, `head`). */
  head?: string;
  /** A diffstat rather than the patch. */
  stat?: boolean;
}

const DIFF_BYTES = 16 * 1024 * 1024;

/**
 * A diff read from a run directory's snapshots alone (the run's git directory reaches a user
 * repository's objects through its alternates): a node's changes, or the whole run's. Undefined when
 * the run kept no snapshots.
 */
export async function snapshotDiff(
  runDir: string,
  options: SnapshotDiffOptions,
): Promise<string | undefined> {
  const gitDir = join(runDir, TREE_GIT_DIR);
  if (!existsSync(join(gitDir, 'HEAD'))) return undefined;
  const place = { gitDir };
  const format = options.stat ? ['--stat'] : ['-p'];
  const flags = ['--no-color', '--no-ext-diff', '--no-textconv', ...format];
  if (options.commit)
    return git(place, ['diff-tree', '-r', '--root', '--no-commit-id', ...flags, options.commit], {
      maxBuffer: DIFF_BYTES,
    });
  const start = readRefFile(gitDir, START_REF);
  const head = options.head;
  if (!start || !head) return undefined;
  const stat = options.stat ? ['--stat'] : [];
  return git(place, ['diff', '--no-color', '--no-ext-diff', '--no-textconv', ...stat, start, head, '--'], {
    maxBuffer: DIFF_BYTES,
  });
}
