import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../shared/atomic-write.js';
import { AttractorError } from '../shared/errors.js';
import { gitAvailable } from '../working-tree/git-available.js';
import { git } from '../working-tree/git-command.js';
import { missingSnapshotError, openRunTree, type RunTree } from '../working-tree/run-tree.js';
import { bundleSnapshots, unbundleSnapshots } from '../working-tree/tree-bundle.js';
import { addWorktree } from '../working-tree/tree-worktree.js';
import { readCheckpoint } from './checkpoint.js';
import type { ForkedRun } from './fork-run.js';

/** Where a fork's files go: a folder named, the original's folder (`--in-place`), or one made beside it. */
export type ForkPlace = { workdir: string } | { inPlace: true } | { beside: true };

export interface ForkTreeOptions {
  fork: ForkedRun;
  place: ForkPlace;
  /** Checks a new folder before anything is written there (a server's `--allow-workdir`); throws to refuse. */
  allow?: (dir: string) => void;
}

/** Where the fork works, and how its folder was made. */
export interface ForkedTree {
  workDir: string;
  how: 'worktree' | 'checkout' | 'in-place';
  commit: string;
}

/** The folder a run worked in, as its manifest says (runs that kept no snapshots say none). */
export function recordedWorkDir(runDir: string): string | undefined {
  try {
    const manifest: unknown = JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8'));
    const options = (manifest as { options?: { workdir?: unknown } } | null)?.options;
    return typeof options?.workdir === 'string' ? options.workdir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Give a fork the files its node found (decision 0331): the original's snapshot at the fork point,
 * restored into the fork's folder, which becomes its working folder (its manifest says so). The
 * original's folder is left as it is, unless `inPlace` (refused while it has changes no snapshot holds).
 * Undefined when the original kept no snapshots (or git is missing): the fork works as before, in the
 * folder a resume would use.
 */
export async function forkTree(options: ForkTreeOptions): Promise<ForkedTree | undefined> {
  const { fork } = options;
  const origin = fork.origin;
  const originDir = recordedWorkDir(origin.run_dir);
  const available = await gitAvailable();
  if (!originDir || !available.ok) return undefined;
  const original = await openRunTree(
    { workDir: originDir, runDir: origin.run_dir, runId: origin.run_id },
    available,
  );
  if (!original?.head) return undefined;
  const commit = readCheckpoint(join(fork.runDir, 'checkpoint.json')).tree_head ?? (await rootOf(original));
  if (!commit || !(await original.has(commit)))
    throw missingSnapshotError(origin.node, commit ?? original.head);
  const target = targetOf(options, originDir, fork.runId);
  options.allow?.(target);
  const made = await placeFiles(original, commit, target, options.place);
  const tree = await openRunTree({ workDir: target, runDir: fork.runDir, runId: fork.runId }, available);
  if (!tree) return undefined;
  // Outside a repository the fork's git directory needs the snapshots' objects (a repository's own hold them).
  if (!tree.repository) await unbundleSnapshots(tree, await bundleSnapshots(original, undefined, commit));
  if (made === 'checkout') await tree.materialise(commit);
  tree.adopt(commit);
  tree.markStart(commit);
  recordWorkDir(fork.runDir, target);
  return { workDir: target, how: made, commit };
}

function targetOf(options: ForkTreeOptions, originDir: string, forkId: string): string {
  const { place } = options;
  if ('inPlace' in place) return originDir;
  const target = 'workdir' in place ? resolve(place.workdir) : `${originDir}.fork-${forkId}`;
  if (existsSync(target) && readdirSync(target).length > 0)
    throw new AttractorError(
      'FORK_FOLDER_NOT_EMPTY',
      `${target} already holds files: a fork restores its tree into a new or empty folder (or use --in-place to restore it into the original's).`,
    );
  return target;
}

async function placeFiles(
  original: RunTree,
  commit: string,
  target: string,
  place: ForkPlace,
): Promise<ForkedTree['how']> {
  if ('inPlace' in place) {
    const head = original.head;
    const unsaved = head ? await original.changedSince(head) : [];
    if (unsaved.length > 0)
      throw new AttractorError(
        'FORK_UNSAVED_CHANGES',
        `--in-place would overwrite changes in ${original.workDir} that no snapshot holds (${unsaved.slice(0, 10).join(', ')}${unsaved.length > 10 ? ', …' : ''}); commit or move them, or fork into a new folder.`,
      );
    await original.restore(commit);
    // The original's ref stays where its run left it: restoring moved it to the fork point.
    if (head) original.adopt(head);
    return 'in-place';
  }
  // Beside the original in a repository: a worktree of it. Elsewhere the fork's own tree writes the files.
  if ('beside' in place && original.repository?.top === original.workDir) {
    await addWorktree(original, commit, target);
    return 'worktree';
  }
  return 'checkout';
}

/** The run's first snapshot (the tree as its first node found it). */
async function rootOf(tree: RunTree): Promise<string | undefined> {
  const roots = await git(
    { gitDir: tree.gitDir, ...(tree.repository ? { objects: tree.repository.objects } : {}) },
    ['rev-list', '--max-parents=0', tree.ref],
  );
  return roots.trim().split('\n').filter(Boolean).pop();
}

/** The fork's manifest names its folder: its resumes work there, not in the original's. */
function recordWorkDir(runDir: string, workDir: string): void {
  const path = join(runDir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as { options?: Record<string, unknown> };
  const next = { ...manifest, options: { ...manifest.options, workdir: workDir } };
  writeFileAtomic(path, `${JSON.stringify(next, null, 2)}\n`);
}
