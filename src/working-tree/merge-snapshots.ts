import { AttractorError } from '../shared/errors.js';
import { disjointMerge } from './disjoint-merge.js';
import { gitAvailable, parseGitVersion } from './git-available.js';
import { type GitPlace, git, gitAnswer } from './git-command.js';
import type { RunTree } from './run-tree.js';
import { nulSplit } from './tree-paths.js';

/** One branch's side of a merge: its id (named in conflicts) and its snapshot. */
export interface MergeSide {
  id: string;
  commit: string;
}

/** A file two or more branches changed in ways git cannot merge, and the branches that changed it. */
export interface MergeConflict {
  path: string;
  branches: string[];
}

export type MergeOutcome = { ok: true; commit: string } | { ok: false; conflicts: MergeConflict[] };

/** `git merge-tree --write-tree` (a merge without a work tree or an index) came in git 2.38. */
const MERGE_TREE_GIT = [2, 38] as const;

async function requireMergeTree(): Promise<void> {
  const available = await gitAvailable();
  const version = available.ok ? parseGitVersion(`git version ${available.version}`) : undefined;
  const [major, minor] = version ?? [0, 0];
  if (major > MERGE_TREE_GIT[0] || (major === MERGE_TREE_GIT[0] && minor >= MERGE_TREE_GIT[1])) return;
  throw new AttractorError(
    'GIT_TOO_OLD_TO_MERGE',
    `merging parallel branches needs git ${MERGE_TREE_GIT.join('.')} or newer (git merge-tree --write-tree), and ${available.ok ? `this git is ${available.version}` : available.reason}; upgrade git, or give the parallel node merge="none" and merge by hand from the branches' refs.`,
  );
}

const objectsOf = (tree: RunTree): GitPlace => ({
  gitDir: tree.gitDir,
  ...(tree.repository ? { objects: tree.repository.objects } : {}),
});

/** The paths `commit` changed since `base`. */
async function touched(place: GitPlace, base: string, commit: string): Promise<Set<string>> {
  const out = await git(place, ['diff-tree', '-r', '--name-only', '--no-renames', '-z', base, commit]);
  return new Set(nulSplit(out));
}

/**
 * Merge `sides` into `ours`: at once when no path was changed two ways (`disjointMerge`), else one after the other, in their order, each a three-way merge against the
 * merge base git finds (the fan-out's snapshot, for branches made from it): every clean merge is a
 * commit with both parents. A side that conflicts is left out and the others still merged, so every
 * conflict is found in one pass; then nothing is kept and the conflicts name their files and the
 * branches (of all `sides`) that changed each since `base`. No work tree or index is touched.
 */
export async function mergeSnapshots(
  tree: RunTree,
  base: string,
  ours: string,
  sides: readonly MergeSide[],
): Promise<MergeOutcome> {
  if (sides.length === 0) return { ok: true, commit: ours };
  await requireMergeTree();
  const place = objectsOf(tree);
  const names = sides.map((side) => side.id).join(', ');
  const disjoint = await disjointMerge(
    place,
    base,
    ours,
    sides.map((side) => side.commit),
    `merge branches ${names}`,
  );
  if (disjoint) return { ok: true, commit: disjoint };
  let current = ours;
  const conflicted = new Set<string>();
  const refused: string[] = [];
  for (const side of sides) {
    const { code, stdout } = await gitAnswer(
      place,
      ['merge-tree', '--write-tree', '--name-only', '--no-messages', '-z', current, side.commit],
      { answerCodes: [1] },
    );
    const [merged, ...paths] = nulSplit(stdout.toString('utf8'));
    if (code === 1 || !merged) {
      for (const path of paths) conflicted.add(path);
      refused.push(side.id);
      continue;
    }
    const message = `merge branch ${side.id}`;
    current = (
      await git(place, ['commit-tree', merged, '-p', current, '-p', side.commit, '-m', message])
    ).trim();
  }
  if (refused.length === 0) return { ok: true, commit: current };
  const changes = await Promise.all(
    sides.map(async (side) => ({ side, paths: await touched(place, base, side.commit) })),
  );
  const conflicts = [...conflicted].sort().map((path) => ({
    path,
    branches: changes.filter((change) => change.paths.has(path)).map((change) => change.side.id),
  }));
  return { ok: false, conflicts };
}
