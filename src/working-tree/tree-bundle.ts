import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, gitBuffer } from './git-command.js';
import type { RunTree } from './run-tree.js';
import { writeRefFile } from './tree-git-dir.js';

/**
 * The objects a run's snapshots added after `from` up to `to`, as a git bundle (all of them when `from`
 * is undefined): what a store carries so another machine can materialise the tree.
 */
export async function bundleSnapshots(tree: RunTree, from: string | undefined, to: string): Promise<Buffer> {
  const place = { gitDir: tree.gitDir, ...(tree.repository ? { objects: tree.repository.objects } : {}) };
  const range = from ? [`^${from}`, tree.ref] : [tree.ref];
  writeRefFile(tree.gitDir, tree.ref, to);
  return gitBuffer(place, ['bundle', 'create', '--quiet', '-', ...range], { maxBuffer: 2 ** 31 - 1 });
}

/** Take in a bundle `bundleSnapshots` made, and point the run's ref at its newest snapshot. */
export async function unbundleSnapshots(tree: RunTree, bytes: Buffer): Promise<string | undefined> {
  const folder = mkdtempSync(join(tmpdir(), 'attractor-bundle-'));
  try {
    const file = join(folder, 'snapshots.bundle');
    writeFileSync(file, bytes);
    const place = { gitDir: tree.gitDir, ...(tree.repository ? { objects: tree.repository.objects } : {}) };
    const heads = await git(place, ['bundle', 'unbundle', file]);
    const commit = /^([0-9a-f]{40,64}) /m.exec(heads)?.[1];
    if (commit) tree.adopt(commit);
    return commit;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
