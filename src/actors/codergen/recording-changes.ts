import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../../shared/atomic-write.js';
import type { CodergenBackend } from '../codergen-backend.js';
import { diffSinceSnapshot, snapshotWorkingTree } from './working-tree-snapshot.js';

/** The file a node visit's changes to its working tree are kept in, in its stage folder. */
export const DIFF_FILE = 'diff.patch';

/** The run directory holding `stageDir`: the nearest folder above it with the run's manifest. */
function runDirOf(stageDir: string): string | undefined {
  for (let dir = dirname(stageDir); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'manifest.json'))) return dir;
  }
  return undefined;
}

/**
 * A backend that also records what each node visit changed in its working directory, as `diff.patch`
 * in the stage folder, when that directory is in a git work tree (docs/decisions/0072-node-diffs-from-git-trees.md).
 * The run's own records, and `recordsDirs` (runs roots, a server's data folder), are left out. Changes
 * other processes make meanwhile (a parallel branch in the same folder) are in it too: git sees files,
 * not who wrote them. Recording never fails the node.
 */
export function recordingChanges(
  backend: CodergenBackend,
  options: { workingDir: string; recordsDirs?: readonly string[] },
): CodergenBackend {
  return {
    name: backend.name,
    async run(request) {
      const dir = request.workingDir ?? options.workingDir;
      const runDir = runDirOf(request.stageDir);
      const excluded = [...(options.recordsDirs ?? []), ...(runDir ? [runDir] : [])];
      const snapshot = await snapshotWorkingTree(dir, excluded);
      try {
        return await backend.run(request);
      } finally {
        const diff = snapshot ? await diffSinceSnapshot(snapshot) : undefined;
        if (diff) writeFileAtomic(join(request.stageDir, DIFF_FILE), diff, { durable: false });
      }
    },
  };
}
