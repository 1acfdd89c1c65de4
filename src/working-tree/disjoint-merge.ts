import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { type GitPlace, git } from './git-command.js';
import { nulSplit } from './tree-paths.js';

const NO_OBJECT = '0'.repeat(40);

/** What each commit changed since `base`: path → `mode object` it ends with (mode 000000: deleted). */
async function changesSince(
  place: GitPlace,
  base: string,
  commits: readonly string[],
): Promise<Map<string, Map<string, string>>> {
  // `--stdin` reads "<commit> <parent>" lines: one command for every side, each diffed against base.
  const input = commits.map((commit) => `${commit} ${base}\n`).join('');
  const out = await git(place, ['diff-tree', '--stdin', '-r', '--no-renames', '--raw', '-z'], { input });
  const changes = new Map<string, Map<string, string>>(commits.map((c) => [c, new Map()]));
  let current: Map<string, string> | undefined;
  let meta: string | undefined;
  for (const token of nulSplit(out)) {
    if (meta !== undefined) {
      current?.set(token, meta);
      meta = undefined;
    } else if (token.startsWith(':')) {
      const [, dstMode, , dstObject] = token.slice(1).split(' ');
      meta = `${dstMode} ${dstObject}`;
    } else current = changes.get(token);
  }
  return changes;
}

/**
 * The merge of `sides` onto `ours` when no path was changed two different ways since `base` (the usual
 * fan-out: each branch writes its own files): every side's changes written into one index at once, a
 * handful of git commands however many sides there are. Undefined when some path was changed two ways,
 * or the changes do not fit together (a file where another side made a folder): a three-way merge decides.
 */
export async function disjointMerge(
  place: GitPlace,
  base: string,
  ours: string,
  sides: readonly string[],
  message: string,
): Promise<string | undefined> {
  const changes = await changesSince(place, base, [ours, ...sides]);
  const result = new Map<string, string>();
  for (const changed of changes.values()) {
    for (const [path, end] of changed) {
      const seen = result.get(path);
      if (seen !== undefined && seen !== end) return undefined;
      result.set(path, end);
    }
  }
  const index = join(place.gitDir, `merge-${randomBytes(6).toString('hex')}.index`);
  try {
    const indexed = { ...place, index };
    await git(indexed, ['read-tree', ours]);
    const lines = [...result].map(([path, end]) => {
      const [mode, object] = end.split(' ');
      return mode === '000000' ? `0 ${NO_OBJECT}\t${path}` : `${mode} ${object}\t${path}`;
    });
    await git(indexed, ['update-index', '-z', '--index-info'], {
      input: lines.map((l) => `${l}\0`).join(''),
    });
    const tree = (await git(indexed, ['write-tree'])).trim();
    const parents = [ours, ...sides].flatMap((commit) => ['-p', commit]);
    return (await git(place, ['commit-tree', tree, ...parents, '-m', message])).trim();
  } catch {
    return undefined;
  } finally {
    rmSync(index, { force: true });
  }
}
