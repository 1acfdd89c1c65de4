import { existsSync, unlinkSync } from 'node:fs';
import { unlink } from 'node:fs/promises';

/**
 * Remove one file if it is there. `rmSync(path, { force: true })` does the same through a JavaScript
 * rimraf (an lstat, then the unlink, with retry machinery), and a bare `unlinkSync` of a missing file
 * builds an Error with a stack trace; on the engine's per-node path (the stage folder is usually new)
 * a cheap existence check first is the fast case, and a file that vanishes in between is still fine.
 */
export function removeFile(path: string): void {
  if (!existsSync(path)) return;
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Remove a file that is usually there (a lock, a journal): one unlink, a missing file is fine. */
export function removePresentFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** `removeFile` on the thread pool: one unlink, a missing file is fine. */
export async function removeFileAsync(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
