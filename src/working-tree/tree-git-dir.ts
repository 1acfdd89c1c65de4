import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { writeFileAtomic } from '../shared/atomic-write.js';
import { type GitPlace, git } from './git-command.js';
import type { UserRepository } from './locate-repository.js';

/** The run's git directory, in its run directory: index, refs and configuration of the run's own. */
export const TREE_GIT_DIR = 'tree.git';

/** The ref naming a run's newest snapshot; its history is the run's. */
export const runRef = (runId: string): string => `refs/attractor/runs/${runId}`;

/** A ref's commit, read from its loose file (the run's git directory never packs refs), or undefined. */
export function readRefFile(gitDir: string, ref: string): string | undefined {
  try {
    const text = readFileSync(join(gitDir, ref), 'utf8').trim();
    return /^[0-9a-f]{40,64}$/.test(text) ? text : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Point `ref` at `commit` by writing its loose file: no git command, so nothing a repository's
 * configuration names (a reference-transaction hook) runs, and the user's repository is written no
 * more than that one file.
 */
export function writeRefFile(gitDir: string, ref: string, commit: string): void {
  const path = join(gitDir, ...ref.split('/'));
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileAtomic(path, `${commit}\n`, { durable: false });
}

/**
 * Lines of the user's ignore files that apply to `workDir` when it is a folder below the repository's
 * top: those files are outside the run's work tree, so git would not read them. A pattern without an
 * inner slash applies anywhere; one anchored below `workDir` is kept relative to it; the rest cannot match.
 */
export function inheritedIgnores(repo: UserRepository, workDir: string): string[] {
  const lines: string[] = [];
  const read = (file: string, prefix: string): void => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return;
    }
    for (const raw of text.split('\n')) {
      const line = raw.trim();
      if (!line || line.startsWith('#')) continue;
      const body = line.replace(/^!/, '').replace(/\/$/, '');
      const negated = line.startsWith('!') ? '!' : '';
      const anchored = body.replace(/^\//, '');
      if (prefix === '' || (!anchored.includes('/') && !body.startsWith('/'))) lines.push(line);
      else if (anchored.startsWith(prefix)) lines.push(`${negated}/${anchored.slice(prefix.length)}`);
    }
  };
  read(join(repo.commonDir, 'info', 'exclude'), relPrefix(repo.top, workDir));
  const parts = relative(repo.top, workDir).split(sep).filter(Boolean);
  for (let depth = 0; depth < parts.length; depth++) {
    const folder = join(repo.top, ...parts.slice(0, depth));
    read(join(folder, '.gitignore'), relPrefix(folder, workDir));
  }
  return lines;
}

function relPrefix(from: string, to: string): string {
  const rel = relative(from, to).split(sep).join('/');
  return rel ? `${rel}/` : '';
}

/** Make the run's git directory (once): no hooks, no templates, a work tree given per command. */
export async function ensureTreeGitDir(place: GitPlace, ignores: readonly string[]): Promise<void> {
  if (!existsSync(join(place.gitDir, 'HEAD'))) {
    mkdirSync(place.gitDir, { recursive: true });
    await git({ gitDir: place.gitDir }, ['init', '--quiet', '--bare', '--template=']);
    await git({ gitDir: place.gitDir }, ['config', 'core.bare', 'false']);
  }
  const exclude = join(place.gitDir, 'info', 'exclude');
  mkdirSync(join(place.gitDir, 'info'), { recursive: true });
  writeFileAtomic(exclude, ignores.length > 0 ? `${ignores.join('\n')}\n` : '', { durable: false });
}
