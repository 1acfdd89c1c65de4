import { stat } from 'node:fs/promises';
import path from 'node:path';
import { globToRegExp } from './glob-to-regexp.js';
import { toPosix, walkFiles } from './walk-files.js';

/**
 * Absolute paths of the files under `base` whose path relative to `base` matches `pattern`, newest
 * modification first (ties by path, so the order is stable). A pattern without `/` matches at any depth
 * only through `**` — `*.ts` means the files directly in `base`, as in a shell.
 */
export async function globFiles(base: string, pattern: string): Promise<string[]> {
  const regex = globToRegExp(pattern.replace(/^\.\//, ''));
  const found: { file: string; mtime: number }[] = [];
  for await (const file of walkFiles(base)) {
    if (!regex.test(toPosix(path.relative(base, file)))) continue;
    const mtime = await stat(file).then(
      (s) => s.mtimeMs,
      () => undefined,
    );
    if (mtime !== undefined) found.push({ file, mtime });
  }
  found.sort((a, b) => b.mtime - a.mtime || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return found.map((f) => f.file);
}
