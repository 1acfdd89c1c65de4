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
  // A bundle names its tip by a ref: a passing one, so the run's own ref stays where it is.
  const tip = `refs/attractor/bundles/${process.pid}-${Date.now()}`;
  writeRefFile(tree.gitDir, tip, to);
  try {
    const range = from ? [`^${from}`, tip] : [tip];
    return await gitBuffer(place, ['bundle', 'create', '--quiet', '-', ...range], { maxBuffer: 2 ** 31 - 1 });
  } finally {
    rmSync(join(tree.gitDir, ...tip.split('/')), { force: true });
  }
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
