import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AttractorError } from '../shared/errors.js';
import { type GitPlace, git } from './git-command.js';
import { indexEntries } from './index-entries.js';
import { locateRepository, type UserRepository } from './locate-repository.js';
import { planSnapshot, type SnapshotSkip } from './snapshot-plan.js';
import {
  ensureTreeGitDir,
  inheritedIgnores,
  readRefFile,
  runRef,
  START_REF,
  TREE_GIT_DIR,
  writeRefFile,
} from './tree-git-dir.js';
import { DEFAULT_TREE_LIMITS, type TreeLimits } from './tree-limits.js';
import { excludedInside, excludeSpec, ignoreFolderPattern, nulSplit } from './tree-paths.js';

/** One snapshot of the run's working tree. */
export interface TreeSnapshot {
  /** The snapshot's commit; none when it was skipped. */
  commit?: string;
  /** The snapshot before it (the commit's parent). */
  parent?: string;
  /** Files over the size limit, left out. */
  omitted: string[];
  skipped?: SnapshotSkip;
}

export interface RunTreeOptions {
  /** The folder the run works in. */
  workDir: string;
  /** The run directory: the run's git directory goes there, and it is never recorded. */
  runDir: string;
  runId: string;
  limits?: Partial<TreeLimits>;
  /** More folders inside the working folder never recorded (the runs root, a server's data folder). */
  exclude?: readonly string[];
  /** The ref of its snapshots (default `refs/attractor/runs/<runId>`): a parallel branch has its own. */
  ref?: string;
  /** The index its snapshots use (default the run's git directory's): a parallel branch has its own. */
  index?: string;
}

/**
 * The run's memory of its files (decision 0331): each snapshot a commit on `refs/attractor/runs/<id>`
 * whose parent is the one before, made with a git directory and index of the run's own. In a user's
 * repository the objects go to its object store and the ref is written there too (so its gc keeps
 * them); elsewhere the run's git directory keeps them. The user's HEAD, index, branches and stash are
 * never touched, and the user's git configuration is never read.
 */
export class RunTree {
  readonly ref: string;
  readonly workDir: string;
  readonly gitDir: string;
  readonly repository: UserRepository | undefined;
  readonly limits: TreeLimits;
  /** Folders inside the work tree never recorded (relative), kept out by the run's own ignore file. */
  readonly #excluded: string[];
  readonly #place: GitPlace;
  readonly #index: string;
  #head: string | undefined;

  constructor(options: RunTreeOptions, repository: UserRepository | undefined) {
    this.workDir = resolve(options.workDir);
    this.gitDir = join(resolve(options.runDir), TREE_GIT_DIR);
    this.ref = options.ref ?? runRef(options.runId);
    this.#index = options.index ?? join(this.gitDir, 'index');
    this.repository = repository;
    this.limits = { ...DEFAULT_TREE_LIMITS, ...options.limits };
    this.#excluded = excludedInside(this.workDir, [options.runDir, ...(options.exclude ?? [])]);
    this.#place = {
      gitDir: this.gitDir,
      workTree: this.workDir,
      ...(options.index ? { index: options.index } : {}),
      ...(repository ? { objects: repository.objects } : {}),
    };
    this.#head = readRefFile(this.gitDir, this.ref) ?? this.#userRef();
  }

  /** The newest snapshot's commit. */
  get head(): string | undefined {
    return this.#head;
  }

  #userRef(): string | undefined {
    return this.repository ? readRefFile(this.repository.commonDir, this.ref) : undefined;
  }

  /** Objects only: no work tree (diffs, bundles, checks). */
  get #objectsPlace(): GitPlace {
    return { gitDir: this.gitDir, ...(this.repository ? { objects: this.repository.objects } : {}) };
  }

  async prepare(): Promise<void> {
    const repo = this.repository;
    const ignores = repo ? inheritedIgnores(repo, this.workDir) : [];
    await ensureTreeGitDir(
      this.#place,
      [...ignores, ...this.#excluded.map(ignoreFolderPattern)],
      repo?.objects,
    );
  }

  /** Record the working tree now as a commit after the newest one; skipped (and said) over the limits. */
  async snapshot(label: string): Promise<TreeSnapshot> {
    this.#seedIndex();
    const listed = nulSplit(
      await git(this.#place, ['ls-files', '-z', '-m', '-o', '--exclude-standard', '--', '.']),
    );
    const total = (await indexEntries(this.#index)) + listed.length;
    const plan = await planSnapshot(this.workDir, [...new Set(listed)], total, this.limits);
    const parent = this.#head;
    if (plan.skipped) return { omitted: plan.omitted, skipped: plan.skipped, ...(parent ? { parent } : {}) };
    await this.#stage(listed, plan.omitted);
    const tree = (await git(this.#place, ['write-tree'])).trim();
    const commit = (
      await git(this.#place, ['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', label])
    ).trim();
    this.#setHead(commit);
    return { commit, omitted: plan.omitted, ...(parent ? { parent } : {}) };
  }

  /**
   * Bring the run's index up to the files `ls-files` listed as changed, deleted or new: the folder was
   * walked once already, so only they are hashed (`git add --all` would walk it again). A path
   * `update-index` refuses (an embedded repository) falls back to that walk.
   */
  async #stage(listed: readonly string[], omitted: readonly string[]): Promise<void> {
    const left = new Set(omitted);
    const paths = [...new Set(listed)].filter((path) => !left.has(path));
    if (paths.length === 0) return;
    try {
      await git(this.#place, ['update-index', '--add', '--remove', '-z', '--stdin'], {
        input: `${paths.join('\0')}\0`,
      });
    } catch {
      await git(this.#place, ['add', '--all', '--', '.', ...omitted.map(excludeSpec)]);
    }
  }

  /** A first snapshot in the repository's top folder starts from the user's index: unchanged files are not hashed again. */
  #seedIndex(): void {
    const repo = this.repository;
    const index = this.#index;
    if (!repo || repo.top !== this.workDir || existsSync(index)) return;
    const userIndex = join(repo.gitDir, 'index');
    // A split index names files of the user's git directory: start empty rather than read it wrong.
    const split = readdirSync(repo.gitDir).some((name) => name.startsWith('sharedindex.'));
    if (existsSync(userIndex) && !split) copyFileSync(userIndex, index);
  }

  #setHead(commit: string): void {
    writeRefFile(this.gitDir, this.ref, commit);
    if (this.repository) writeRefFile(this.repository.commonDir, this.ref, commit);
    this.#head = commit;
  }

  /** Name `commit` the tree the run started from (what `attractor diff` compares a whole run against). */
  markStart(commit: string): void {
    writeRefFile(this.gitDir, START_REF, commit);
  }

  /** Make `commit` the newest snapshot (a resume that restored or materialised it, a fork's start). */
  adopt(commit: string): void {
    this.#setHead(commit);
  }

  /** Whether the objects of `commit` are here. */
  async has(commit: string): Promise<boolean> {
    try {
      await git(this.#objectsPlace, ['cat-file', '-e', `${commit}^{tree}`]);
      return true;
    } catch {
      return false;
    }
  }

  /** Paths that differ between the working tree and `commit` (changed, deleted, new). */
  async changedSince(commit: string): Promise<string[]> {
    const tracked = nulSplit(
      await git(this.#place, ['diff', '--no-ext-diff', '--name-only', '-z', commit, '--', '.']),
    );
    const fresh = nulSplit(await git(this.#place, ['ls-files', '-z', '-o', '--exclude-standard', '--', '.']));
    return [...new Set([...tracked, ...fresh])].sort();
  }

  /**
   * Reset the working folder to `commit`: changed files rewritten, files the snapshot lacks removed,
   * ignored files (and the run's records) kept.
   */
  async restore(commit: string): Promise<void> {
    await git(this.#place, ['add', '--all', '--', '.']);
    await git(this.#place, ['restore', `--source=${commit}`, '--staged', '--worktree', '--', '.']);
    this.adopt(commit);
  }

  /**
   * Write the files of `commit` into `into` (made if missing): a folder that does not hold the tree.
   * `keepIndex`: the index it was written with stays there (a branch's snapshots start from it).
   */
  async materialise(commit: string, into: string = this.workDir, keepIndex?: string): Promise<void> {
    const target = resolve(into);
    mkdirSync(target, { recursive: true });
    const index = keepIndex ?? join(this.gitDir, 'index.materialise');
    rmSync(index, { force: true });
    const place: GitPlace = { ...this.#objectsPlace, workTree: target, index };
    // One command reads the snapshot into the index and writes its files (`--reset`: over what is there).
    await git(place, ['read-tree', '--reset', '-u', commit]);
    if (target === this.workDir) {
      renameSync(index, this.#index);
      this.adopt(commit);
    } else if (!keepIndex) rmSync(index, { force: true });
  }

  /** A unified diff (or `--stat`) between two snapshots; `from` undefined: from nothing. */
  async diff(from: string | undefined, to: string, options: { stat?: boolean } = {}): Promise<string> {
    const base = from ?? (await this.#emptyTree());
    const stat = options.stat ? ['--stat'] : [];
    return git(
      this.#objectsPlace,
      ['diff', '--no-color', '--no-ext-diff', '--no-textconv', ...stat, base, to, '--'],
      {
        maxBuffer: 16 * 1024 * 1024,
      },
    );
  }

  async #emptyTree(): Promise<string> {
    return (
      await git(this.#objectsPlace, ['hash-object', '-t', 'tree', '-w', '--stdin'], { input: '' })
    ).trim();
  }

  /** Whether `workDir` holds a tree: it exists and has anything but the run's own records in it. */
  holdsTree(): boolean {
    if (!existsSync(this.workDir)) return false;
    const records = this.#excluded;
    return readdirSync(this.workDir).some(
      (name) => !records.some((r) => r === name || r.startsWith(`${name}/`)),
    );
  }

  /** The place of this tree's git commands (bundles and worktrees use it). */
  get place(): GitPlace {
    return this.#place;
  }
}

let warned = false;

/**
 * The run's tree, or undefined when git is missing or too old (`onUnavailable` hears why, once per
 * process: runs work as before, their files are not snapshotted).
 */
export async function openRunTree(
  options: RunTreeOptions,
  availability: { ok: true } | { ok: false; reason: string },
  onUnavailable?: (reason: string) => void,
): Promise<RunTree | undefined> {
  if (!availability.ok) {
    if (!warned) onUnavailable?.(`${availability.reason}: the run's files are not snapshotted`);
    warned = true;
    return undefined;
  }
  const workDir = resolve(options.workDir);
  const repository = existsSync(workDir) ? locateRepository(workDir) : undefined;
  const tree = new RunTree(options, repository);
  await tree.prepare();
  return tree;
}

/** A snapshot the run needs is not there: which node's, and the way out. */
export function missingSnapshotError(node: string, commit: string): AttractorError {
  return new AttractorError(
    'TREE_SNAPSHOT_MISSING',
    `the snapshot of the working tree at node "${node}" (commit ${commit.slice(0, 12)}) is missing or damaged, so the folder cannot be restored; resume in the folder that holds the run's files, or start the run again.`,
  );
}
