import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';

/** The files of a git working tree at one moment, as a tree object in its repository. */
export interface WorkingTreeSnapshot {
  readonly dir: string;
  readonly tree: string;
  /** Pathspecs of what the snapshot leaves out (run records kept under the working tree). */
  readonly pathspecs: readonly string[];
  /** A private index: the user's staging area is never touched. */
  readonly index: string;
  readonly tempDir: string;
}

// A large diff is still text a person reads; past this it is not kept.
const MAX_DIFF_BYTES = 16 * 1024 * 1024;

function git(dir: string, args: readonly string[], index?: string): Promise<string> {
  return new Promise((done, fail) => {
    execFile(
      'git',
      args,
      {
        cwd: dir,
        encoding: 'utf8',
        maxBuffer: MAX_DIFF_BYTES,
        // No lock on the user's index for a status refresh; our own index is the one written.
        env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', ...(index ? { GIT_INDEX_FILE: index } : {}) },
      },
      (error, stdout) => (error ? fail(error) : done(stdout)),
    );
  });
}

/** `:(exclude)` pathspecs for the folders under `dir` a snapshot must leave out. */
function exclusions(dir: string, excluded: readonly string[]): string[] {
  const specs: string[] = [];
  for (const folder of excluded) {
    const rel = relative(dir, resolve(folder));
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) continue;
    specs.push(`:(exclude)${rel}`);
  }
  return specs;
}

/**
 * Records the files of the git working tree at `dir` (tracked and untracked, `.gitignore` respected), or
 * undefined when `dir` is in no git work tree or git is missing. The snapshot's index starts as a copy
 * of the repository's, so only files whose stat changed are hashed again.
 */
export async function snapshotWorkingTree(
  dir: string,
  excluded: readonly string[] = [],
): Promise<WorkingTreeSnapshot | undefined> {
  let userIndex: string;
  try {
    if ((await git(dir, ['rev-parse', '--is-inside-work-tree'])).trim() !== 'true') return undefined;
    userIndex = resolve(dir, (await git(dir, ['rev-parse', '--git-path', 'index'])).trim());
  } catch {
    return undefined;
  }
  const tempDir = await mkdtemp(join(tmpdir(), 'attractor-snapshot-'));
  const index = join(tempDir, 'index');
  try {
    await copyFile(userIndex, index).catch(() => {});
    const pathspecs = exclusions(dir, excluded);
    const tree = await writeTree(dir, index, pathspecs);
    return { dir, tree, pathspecs, index, tempDir };
  } catch {
    await rm(tempDir, { recursive: true, force: true });
    return undefined;
  }
}

async function writeTree(dir: string, index: string, pathspecs: readonly string[]): Promise<string> {
  await git(dir, ['add', '--all', '--', '.', ...pathspecs], index);
  return (await git(dir, ['write-tree'], index)).trim();
}

/**
 * What changed under the snapshot's folder since it was taken, as a unified diff ("" when nothing did);
 * undefined when git could not tell. Frees the snapshot.
 */
export async function diffSinceSnapshot(snapshot: WorkingTreeSnapshot): Promise<string | undefined> {
  try {
    const after = await writeTree(snapshot.dir, snapshot.index, snapshot.pathspecs);
    return await git(snapshot.dir, [
      'diff',
      '--no-color',
      '--no-ext-diff',
      snapshot.tree,
      after,
      '--',
      '.',
      ...snapshot.pathspecs,
    ]);
  } catch {
    return undefined;
  } finally {
    await rm(snapshot.tempDir, { recursive: true, force: true });
  }
}
