import { readdirSync } from 'node:fs';
import path from 'node:path';

/** Enough for a picker; a folder holding more pipelines than this is listed in part (`truncated`). */
const MAX_FILES = 500;
const MAX_DEPTH = 4;

/**
 * The `.dot` files under the server's allowed folders, as paths relative to their folder (what
 * `dot_path` takes). Hidden folders and `node_modules` are skipped and symbolic links are not followed:
 * reading a chosen file goes through `readDotPath`, which confines it anyway.
 */
export function listPipelineFiles(allowDirs: readonly string[]): { files: string[]; truncated: boolean } {
  const files = new Set<string>();
  let truncated = false;
  const walk = (root: string, rel: string, depth: number): void => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(path.join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (files.size >= MAX_FILES) {
        truncated = true;
        return;
      }
      const name = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isFile() && entry.name.endsWith('.dot')) files.add(name);
      else if (entry.isDirectory() && depth < MAX_DEPTH && !entry.name.startsWith('.')) {
        if (entry.name !== 'node_modules') walk(root, name, depth + 1);
      }
    }
  };
  for (const dir of allowDirs) walk(path.resolve(dir), '', 0);
  return { files: [...files], truncated };
}
