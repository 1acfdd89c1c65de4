import { unlinkSync } from 'node:fs';

/**
 * Remove one file if it is there. `rmSync(path, { force: true })` does the same through a JavaScript
 * rimraf (an lstat, then the unlink, with retry machinery) and costs several times more on the engine's
 * per-node path; one unlink whose "not there" is ignored is all a single file needs.
 */
export function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
