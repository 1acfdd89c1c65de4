import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

let counter = 0;
/** Directories already made by this process: a checkpoint rewritten at every step needs no mkdir each time. */
const madeDirs = new Set<string>();

export interface AtomicWriteOptions {
  /** fsync the file and its directory, so the write survives a power loss (default true). */
  durable?: boolean;
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
  if (!madeDirs.has(dir)) {
    mkdirSync(dir, { recursive: true });
    madeDirs.add(dir);
  }
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${++counter}.tmp`);
  let fd: number;
  try {
    fd = openSync(tmp, 'w');
  } catch (error) {
    // Someone removed the directory since we made it: make it again, once.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dir, { recursive: true });
    fd = openSync(tmp, 'w');
  }
  try {
    if (typeof data === 'string') writeSync(fd, data);
    else writeSync(fd, data);
    if (durable) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  if (durable) {
    const dfd = openSync(dir, 'r');
    try {
      fsyncSync(dfd);
    } finally {
      closeSync(dfd);
    }
  }
}
