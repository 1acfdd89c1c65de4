import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

let counter = 0;

/**
 * A temp name beside `path`, unique in this process (one counter for every writer here, deferred ones
 * too) and hidden (a leading dot), so a crash leaves nothing that looks like the file itself.
 */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${++counter}.tmp`);
}

export interface AtomicWriteOptions {
  /** fsync the file and its directory, so the write survives a power loss (default true). */
  durable?: boolean;
  /**
   * With `durable`, also fsync the directory so the rename itself survives a power loss (default true).
   * `false` when the caller fsyncs the same directory before anything depends on the file: the run
   * directory's manifest is made durable by the first checkpoint's directory fsync.
   */
  syncDirectory?: boolean;
}

/**
 * Write a file so that readers see either the old or the new content, never half of it:
 * temp file in the same directory, (fsync), rename over the target, (fsync the directory).
 * Synchronous on purpose: it is about 2x faster than the promise API for small files.
 */
export function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): void {
  const durable = options.durable ?? true;
  const dir = dirname(path);
  const tmp = tempPathFor(path);
  let fd: number;
  try {
    fd = openSync(tmp, 'w');
  } catch (error) {
    // The directory is made only when it is missing: the usual case (a checkpoint rewritten at every
    // step, a status.json in the stage folder the engine just made) costs no mkdir at all.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dir, { recursive: true });
    fd = openSync(tmp, 'w');
  }
  try {
    try {
      if (typeof data === 'string') writeSync(fd, data);
      else writeSync(fd, data);
      if (durable) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (error) {
    // A full disk or a target that cannot be replaced (a directory): no temp file is left behind.
    rmSync(tmp, { force: true });
    throw error;
  }
  if (durable && (options.syncDirectory ?? true)) {
    const dfd = openSync(dir, 'r');
    try {
      fsyncSync(dfd);
    } finally {
      closeSync(dfd);
    }
  }
}
