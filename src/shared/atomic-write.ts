import { closeSync, fsync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';

const fsyncAsync = promisify(fsync);

let counter = 0;

/**
 * A temp name beside `path`, unique in this process (one counter for every writer here) and hidden (a
 * leading dot), so a crash leaves nothing that looks like the file itself.
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
   * directory's manifest is made durable by the journal's creation right after it.
   */
  syncDirectory?: boolean;
}

/** One file to write: where, and what. */
export interface FileToWrite {
  path: string;
  data: string | Uint8Array;
}

/**
 * Write a file so that readers see either the old or the new content, never half of it:
 * temp file in the same directory, (fsync), rename over the target, (fsync the directory).
 * Synchronous: for a caller that may wait for the disk (a CLI command, an embedder's save).
 */
export function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): void {
  const durable = options.durable ?? true;
  const { tmp, fd } = openTemp(path, data);
  try {
    if (durable) fsyncSync(fd);
  } catch (error) {
    dropTemp(tmp, fd);
    throw error;
  }
  placeTemps([{ tmp, fd, path }]);
  if (durable && (options.syncDirectory ?? true)) syncFolder(dirname(path));
}

/**
 * `writeFileAtomic` for a caller that must not wait for the disk (a run's write lane, a handler): the
 * same temp file, rename and folder fsync, but each fsync on libuv's thread pool. The rest — a create,
 * a write, a rename, microseconds each — is made at once: a trip to the thread pool for each costs
 * more (two thread wake-ups, far more on a busy machine) than the call itself.
 */
export async function writeFileAtomicAsync(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  await writeFilesAtomicAsync([{ path, data }], options);
}

/**
 * Several files written as `writeFileAtomicAsync` writes one, their fsyncs side by side, then renamed in
 * the order given: a crash leaves a file only if every file before it is in place. A failure leaves no
 * temp file; the files before the one that failed stay placed.
 */
export async function writeFilesAtomicAsync(
  files: readonly FileToWrite[],
  options: AtomicWriteOptions = {},
): Promise<void> {
  const durable = options.durable ?? true;
  const temps: { tmp: string; fd: number; path: string }[] = [];
  try {
    for (const file of files) temps.push({ ...openTemp(file.path, file.data), path: file.path });
    if (durable) await Promise.all(temps.map(({ fd }) => fsyncAsync(fd)));
  } catch (error) {
    for (const { tmp, fd } of temps) dropTemp(tmp, fd);
    throw error;
  }
  placeTemps(temps);
  if (!durable || !(options.syncDirectory ?? true)) return;
  await Promise.all([...new Set(files.map((file) => dirname(file.path)))].map(syncFolderAsync));
}

/** fsync a folder (a rename or a new name in it survives a power loss), the fsync on the thread pool. */
export async function syncFolderAsync(dir: string): Promise<void> {
  const dfd = openSync(dir, 'r');
  try {
    await fsyncAsync(dfd);
  } finally {
    closeSync(dfd);
  }
}

/** `data` in a new temp file beside `path`, still open; the folder is made only when it is missing. */
function openTemp(path: string, data: string | Uint8Array): { tmp: string; fd: number } {
  const tmp = tempPathFor(path);
  let fd: number;
  try {
    fd = openSync(tmp, 'w');
  } catch (error) {
    // The usual case (a checkpoint rewritten at every step, a status.json in the stage folder just
    // made) costs no mkdir at all.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dirname(path), { recursive: true });
    fd = openSync(tmp, 'w');
  }
  try {
    writeWhole(fd, typeof data === 'string' ? Buffer.from(data) : data);
  } catch (error) {
    dropTemp(tmp, fd);
    throw error;
  }
  return { tmp, fd };
}

/** Close each temp file and rename it over its target, in order; on a failure no temp file is left. */
function placeTemps(temps: readonly { tmp: string; fd: number; path: string }[]): void {
  for (const [i, { tmp, fd, path }] of temps.entries()) {
    try {
      closeSync(fd);
      renameSync(tmp, path);
    } catch (error) {
      // A full disk or a target that cannot be replaced (a directory): the rest are given up too.
      rmSync(tmp, { force: true });
      for (const rest of temps.slice(i + 1)) dropTemp(rest.tmp, rest.fd);
      throw error;
    }
  }
}

function dropTemp(tmp: string, fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // closed already: the file is what is left to remove
  }
  rmSync(tmp, { force: true });
}

function syncFolder(dir: string): void {
  const dfd = openSync(dir, 'r');
  try {
    fsyncSync(dfd);
  } finally {
    closeSync(dfd);
  }
}

/**
 * All of `data` at the descriptor's position (its end, for a file opened to append): a write can stop
 * short (a signal, a disk filling up), and the rest must follow, or the next line would be glued to a
 * fragment. Returns the bytes written.
 */
export function writeWhole(
  fd: number,
  data: Uint8Array,
  write: (fd: number, buffer: Uint8Array, offset: number, length: number) => number = writeSync,
): number {
  for (let done = 0; done < data.length; ) done += write(fd, data, done, data.length - done);
  return data.length;
}
