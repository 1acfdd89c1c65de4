import {
  close,
  closeSync,
  fsync,
  fsyncSync,
  mkdirSync,
  open,
  openSync,
  rename,
  renameSync,
  rmSync,
  write,
  writeSync,
} from 'node:fs';
import { mkdir as mkdirAsync, rm as rmAsync } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';

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
  /** Permissions of a new file (default 0o666 less the umask); 0o600 for secrets' hashes. */
  mode?: number;
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
  const mode = options.mode ?? 0o666;
  let fd: number;
  try {
    fd = openSync(tmp, 'w', mode);
  } catch (error) {
    // The directory is made only when it is missing: the usual case (a checkpoint rewritten at every
    // step, a status.json in the stage folder the engine just made) costs no mkdir at all.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dir, { recursive: true });
    fd = openSync(tmp, 'w', mode);
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

const openAsync = promisify(open);
const writeAsync = promisify(write);
const fsyncAsync = promisify(fsync);
const closeAsync = promisify(close);
const renameAsync = promisify(rename);

/**
 * `writeFileAtomic` on libuv's thread pool: the same temp file, (fsync), rename, (folder fsync), each an
 * async call, so the event loop serves other runs while the disk works. The folder is made when missing.
 */
export async function writeFileAtomicAsync(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const durable = options.durable ?? true;
  const dir = dirname(path);
  const tmp = tempPathFor(path);
  let fd: number;
  try {
    fd = await openAsync(tmp, 'w');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdirAsync(dir, { recursive: true });
    fd = await openAsync(tmp, 'w');
  }
  try {
    try {
      await writeWholeAsync(fd, typeof data === 'string' ? Buffer.from(data) : data);
      if (durable) await fsyncAsync(fd);
    } finally {
      await closeAsync(fd);
    }
    await renameAsync(tmp, path);
  } catch (error) {
    await rmAsync(tmp, { force: true }).catch(() => {});
    throw error;
  }
  if (durable && (options.syncDirectory ?? true)) await syncFolderAsync(dir);
}

/** fsync a folder (a rename or a new name in it survives a power loss), on the thread pool. */
export async function syncFolderAsync(dir: string): Promise<void> {
  const dfd = await openAsync(dir, 'r');
  try {
    await fsyncAsync(dfd);
  } finally {
    await closeAsync(dfd);
  }
}

/** All of `data` at the descriptor's position (its end, for a file opened to append), however short each write. */
export async function writeWholeAsync(fd: number, data: Uint8Array): Promise<number> {
  for (let done = 0; done < data.length; )
    done += (await writeAsync(fd, data, done, data.length - done, null)).bytesWritten;
  return data.length;
}
