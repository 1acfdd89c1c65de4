import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** Directories a search never enters: version-control internals and installed dependencies. */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/**
 * Every regular file under `dir` (absolute paths), depth first, names sorted. Symbolic links are not
 * followed: a link could lead out of the working directory or into a cycle.
 */
export async function* walkFiles(dir: string): AsyncGenerator<string> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return; // vanished or unreadable: a search skips it rather than failing
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name)) yield* walkFiles(full);
    } else if (entry.isFile()) {
      yield full;
    }
  }
}

/** `a/b/c.ts` whatever the platform's separator. */
export const toPosix = (p: string): string => p.split(path.sep).join('/');
