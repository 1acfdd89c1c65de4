import { realpathSync } from 'node:fs';
import path from 'node:path';
import { ApiError } from './api-error.js';

/**
 * Resolve a path a request names (`dot_path`) inside one of the allowed directories. Relative paths only;
 * `..` segments, absolute paths and symlinks that lead outside are refused (403), a missing file is 404.
 */
export function confinePath(requested: string, allowedDirs: readonly string[]): string {
  if (requested === '' || path.isAbsolute(requested) || requested.split(/[\\/]/).includes('..')) {
    throw new ApiError(
      403,
      'PATH_NOT_ALLOWED',
      `path "${requested}" must be relative to an allowed directory, without "..".`,
    );
  }
  for (const dir of allowedDirs) {
    let root: string;
    let real: string;
    try {
      root = realpathSync(dir);
      real = realpathSync(path.join(root, requested));
    } catch {
      continue;
    }
    if (real === root || real.startsWith(`${root}${path.sep}`)) return real;
    throw new ApiError(403, 'PATH_NOT_ALLOWED', `path "${requested}" leads outside the allowed directories.`);
  }
  throw new ApiError(404, 'FILE_NOT_FOUND', `no file "${requested}" in the allowed directories.`);
}
