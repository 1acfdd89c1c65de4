import path from 'node:path';

/**
 * True when `target` is `root` or lies below it, comparing the paths as written (no file-system access):
 * callers compare real paths (after `realpath`) when symlinks matter. A sibling that merely starts with
 * the same letters (`/srv/app-old` against `/srv/app`) is not inside.
 */
export function isInside(target: string, root: string): boolean {
  const rel = path.relative(path.resolve(root), path.resolve(target));
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}
