import {
  closeSync,
  fdatasyncSync,
  fstatSync,
  fsync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';

const fsyncAsync = promisify(fsync);

export interface LineFile {
  /** Open (and create) the file now rather than at the first append. */
  open(): void;
  /** Append one line (no newline in it) with a single write. */
  append(line: string): void;
  /**
   * Resolves once every line appended so far is on disk: with `durable`, an fsync on the thread pool,
   * one for all the lines appended while the previous one ran (a group commit); else at once.
   */
  synced(): Promise<void>;
  /** With `durable`, put every line appended so far on disk before returning (fdatasync). */
  syncNow(): void;
  /** Bytes appended since the file was opened or emptied. */
  readonly size: number;
  /** Drop every line (not fsync'd: the caller decides what a lost truncation means). */
  truncate(): void;
  /** Close the file (after the fsyncs under way). */
  close(): void;
}

/**
 * A file of records, one per line, each appended with one `write` — a record is on disk whole or, if the
 * process died in the middle of it, as a torn last line that readers skip (a line that does not parse).
 * Opened on the first append (its folder made if missing); a torn line an earlier process left is ended
 * first, so the next record is a line of its own. With `durable`, `synced()` fsyncs the records, and the
 * folder is fsync'd once when the file is new, so a record survives a power loss as a checkpoint does.
 */
export function openLineFile(path: string, options: { durable?: boolean } = {}): LineFile {
  const durable = options.durable ?? true;
  let fd: number | undefined;
  const open = (): number => {
    let opened: number;
    try {
      opened = openSync(path, 'a+');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      mkdirSync(dirname(path), { recursive: true });
      opened = openSync(path, 'a+');
    }
    if (endTornLine(opened) === 0 && durable) syncFolder(dirname(path));
    return opened;
  };
  // Lines written since the running fsync began; the fsync running; the one queued behind it.
  let dirty = false;
  let running: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  const startSync = (target: number): Promise<void> => {
    dirty = false;
    const sync: Promise<void> = fsyncAsync(target).finally(() => {
      if (running === sync) running = undefined;
    });
    running = sync;
    return sync;
  };
  let size = 0;
  return {
    open(): void {
      fd ??= open();
    },
    append(line: string): void {
      fd ??= open();
      size += writeWhole(fd, `${line}\n`);
      if (durable) dirty = true;
    },
    syncNow(): void {
      if (!dirty || fd === undefined) return;
      dirty = false;
      fdatasyncSync(fd);
    },
    get size(): number {
      return size;
    },
    truncate(): void {
      if (fd !== undefined) ftruncateSync(fd, 0);
      size = 0;
    },
    synced(): Promise<void> {
      const target = fd;
      if (!dirty || target === undefined) return running ?? Promise.resolve();
      if (!running) return startSync(target);
      queued ??= running
        .catch(() => {})
        .then(() => {
          queued = undefined;
          return startSync(target);
        });
      return queued;
    },
    close(): void {
      const target = fd;
      if (target === undefined) return;
      fd = undefined;
      const pending = queued ?? running;
      // An fsync under way still needs the descriptor: close it after.
      if (pending)
        void pending
          .catch(() => {})
          .then(() => {
            try {
              closeSync(target);
            } catch {
              // nothing is left to lose: every line was written, and their fsync has answered
            }
          });
      else closeSync(target);
    },
  };
}

/**
 * Write all of `text`: a write can stop short (a signal, a disk filling up), and the rest of the line must
 * follow it, or the next line would be glued to a fragment. Returns the bytes written.
 */
export function writeWhole(
  fd: number,
  text: string,
  write: (fd: number, buffer: Buffer, offset: number) => number = writeSync,
): number {
  const buffer = Buffer.from(text);
  for (let done = 0; done < buffer.length; ) done += write(fd, buffer, done);
  return buffer.length;
}

/**
 * A process killed in the middle of a write can leave a last line without its newline: end it, so the next
 * record is a line of its own, not glued to the fragment. `fd` is open for reading and appending (`a+`);
 * returns the file's size before.
 */
export function endTornLine(fd: number): number {
  const { size } = fstatSync(fd);
  if (size > 0) {
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    if (last[0] !== 0x0a) writeSync(fd, '\n');
  }
  return size;
}

function syncFolder(dir: string): void {
  const dfd = openSync(dir, 'r');
  try {
    fsyncSync(dfd);
  } finally {
    closeSync(dfd);
  }
}

/** The records of a line file, in order; a line that is not one (a torn last line) is left out. */
export function readLines<T>(text: string, parse: (line: string) => T): T[] {
  const records: T[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    try {
      records.push(parse(line));
    } catch {
      // torn by a crash in the middle of its write, or not ours: skipped
    }
  }
  return records;
}
