import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** The git repository a folder lies in, found without running git (its configuration is never read). */
export interface UserRepository {
  /** The repository's work tree top (the folder holding `.git`). */
  top: string;
  /** The git directory of that work tree (a linked worktree's own, under the common one). */
  gitDir: string;
  /** The git directory holding objects, refs and worktrees (the same as gitDir but in a linked worktree). */
  commonDir: string;
  objects: string;
}

function readGitFile(path: string): string | undefined {
  try {
    const match = /^gitdir: (.+)$/m.exec(readFileSync(path, 'utf8'));
    return match?.[1] ? resolve(dirname(path), match[1].trim()) : undefined;
  } catch {
    return undefined;
  }
}

function gitDirAt(folder: string): string | undefined {
  const dotGit = join(folder, '.git');
  try {
    const stat = statSync(dotGit);
    if (stat.isDirectory()) return existsSync(join(dotGit, 'HEAD')) ? dotGit : undefined;
    if (stat.isFile()) return readGitFile(dotGit);
  } catch {
    return undefined;
  }
  return undefined;
}

function commonDirOf(gitDir: string): string {
  try {
    const text = readFileSync(join(gitDir, 'commondir'), 'utf8').trim();
    return isAbsolute(text) ? text : resolve(gitDir, text);
  } catch {
    return gitDir;
  }
}

/**
 * The repository whose work tree holds `folder` (it or a folder above it has `.git`), or undefined.
 * A bare or damaged `.git` counts as none: the run then keeps a git directory of its own.
 */
export function locateRepository(folder: string): UserRepository | undefined {
  for (let dir = resolve(folder); ; dir = dirname(dir)) {
    const gitDir = gitDirAt(dir);
    if (gitDir && existsSync(join(gitDir, 'HEAD'))) {
      const commonDir = commonDirOf(gitDir);
      const objects = join(commonDir, 'objects');
      if (existsSync(objects)) return { top: dir, gitDir, commonDir, objects };
    }
    if (dir === dirname(dir)) return undefined;
  }
}
