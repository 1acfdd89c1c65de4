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
  await writeFilesAtomicAsync([{ path, data }], options);
}

/**
 * Several files written as `writeFileAtomicAsync` writes one, their temp files written and fsync'd side
 * by side, then renamed in the order given: a crash leaves a file only if every file before it is in
 * place. A failure leaves no temp file; the files before the one that failed stay placed.
 */
export async function writeFilesAtomicAsync(
  files: readonly { path: string; data: string | Uint8Array }[],
  options: AtomicWriteOptions = {},
): Promise<void> {
  const durable = options.durable ?? true;
  const temps = await Promise.allSettled(files.map((file) => writeTempAsync(file.path, file.data, durable)));
  const written = temps.flatMap((temp) => (temp.status === 'fulfilled' ? [temp.value] : []));
  const failed = temps.find((temp) => temp.status === 'rejected');
  try {
    if (failed) throw failed.reason;
    for (const [i, file] of files.entries()) await renameAsync(written[i] ?? '', file.path);
  } catch (error) {
    await Promise.all(written.map((tmp) => rmAsync(tmp, { force: true }).catch(() => {})));
    throw error;
  }
  const folders = new Set(files.map((file) => dirname(file.path)));
  if (durable && (options.syncDirectory ?? true)) await Promise.all([...folders].map(syncFolderAsync));
}

/** `data` in a new temp file beside `path` (its folder made when missing), fsync'd when `durable`. */
async function writeTempAsync(path: string, data: string | Uint8Array, durable: boolean): Promise<string> {
  const tmp = tempPathFor(path);
  let fd: number;
  try {
    fd = await openAsync(tmp, 'w');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdirAsync(dirname(path), { recursive: true });
    fd = await openAsync(tmp, 'w');
  }
  try {
    try {
      await writeWholeAsync(fd, typeof data === 'string' ? Buffer.from(data) : data);
      if (durable) await fsyncAsync(fd);
    } finally {
      await closeAsync(fd);
    }
  } catch (error) {
    await rmAsync(tmp, { force: true }).catch(() => {});
    throw error;
  }
  return tmp;
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
