import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/**
 * The attractor package's folder: the nearest folder above this module that holds a package.json.
 * Searched for rather than counted in `../` steps, because this module runs at different depths: from
 * src/shared (tests), dist/shared (the library) and a chunk of the CLI's bundle in dist/bin. Without one
 * (a broken install) it is the file system's root, where the callers' files are then missing.
 */
export function packageRoot(): string {
  if (cached !== undefined) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  cached = dir;
  return dir;
}
