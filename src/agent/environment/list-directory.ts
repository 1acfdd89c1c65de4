import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { DirEntry } from './execution-environment.js';

/**
 * Entries below `dir` up to `depth` levels, each directory followed by its own entries (directories
 * first, then files, by name). Symbolic links are listed as files and never entered.
 */
export async function listDirectory(dir: string, depth = 1): Promise<DirEntry[]> {
  const result: DirEntry[] = [];
  await collect(dir, '', 1, depth, result);
  return result;
}

async function collect(dir: string, prefix: string, level: number, depth: number, out: DirEntry[]) {
  const entries: Dirent[] = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => {
    if (a.isDirectory() !== b.isDirectory()) return a.isDirectory() ? -1 : 1;
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  });
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    const isDir = entry.isDirectory();
    const size = isDir
      ? 0
      : await stat(full).then(
          (s) => s.size,
          () => 0,
        );
    out.push({ name: entry.name, path: relative, isDir, size, depth: level });
    if (isDir && level < depth) await collect(full, relative, level + 1, depth, out).catch(() => undefined);
  }
}
