import { close, fstat, ftruncate, open, read, write } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { syncFolderAsync, writeWholeAsync } from './atomic-write.js';
import type { CommitBatch, WriteLane } from './write-lane.js';

const openAsync = promisify(open);
const closeAsync = promisify(close);
const fstatAsync = promisify(fstat);
const readAsync = promisify(read);
const writeAsync = promisify(write);
const ftruncateAsync = promisify(ftruncate);

/** A file of records, one per line, whose every disk access is an operation of a write lane. */
export interface LineFile {
  /** Open (and create) the file with the lane's next batch rather than at the first append. */
  open(): void;
  /** Append one line (no newline in it). */
  append(line: string): void;
  /** Bytes appended since the file was opened or emptied. */
  readonly size: number;
  /** Drop every line (not fsync'd: the caller decides what a lost truncation means). */
  truncate(): void;
  /** Close the file after its last line. */
  close(): void;
  /** Close and delete the file after its last line. */
  remove(): void;
}

/**
 * A line file on `lane` (`shared/write-lane.ts`): one `write` per line, or per group of lines appended
 * back to back, made in the lane's batch, so a record is on disk whole or, after a crash in the middle
 * of it, as a torn last line that readers skip. Opened (its folder made if missing) by the first
 * operation; a torn line an earlier process left is ended first, so the next record is a line of its
 * own. With `sync`, a durable lane fdatasyncs the file once at the end of each batch that wrote to it,
 * and fsyncs the folder when the file is new, so a record survives a power cut as a checkpoint does;
 * the lane's `settled()` says when.
 */
export function openLineFile(path: string, lane: WriteLane, options: { sync: boolean }): LineFile {
  const what = `writing ${path}`;
  let fd: number | undefined;
  let opened = false;
  let size = 0;
  // Lines not yet taken by their write, and the lane's count when they were queued: lines join the
  // group only while nothing else was queued on the lane after it (order across files is kept).
  let group: { text: string; at: number } | undefined;
  const ensureOpen = async (batch: CommitBatch): Promise<number> => {
    if (fd !== undefined) return fd;
    let handle: number;
    try {
      handle = await openAsync(path, 'a+');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await mkdir(dirname(path), { recursive: true });
      handle = await openAsync(path, 'a+');
    }
    fd = handle;
    const { size: before } = await fstatAsync(handle);
    if (before > 0) {
      const last = Buffer.alloc(1);
      await readAsync(handle, last, 0, 1, before - 1);
      if (last[0] !== 0x0a) await writeAsync(handle, '\n');
    } else if (options.sync && batch.durable) await syncFolderAsync(dirname(path));
    return handle;
  };
  const closeNow = async (batch: CommitBatch): Promise<void> => {
    const handle = fd;
    if (handle === undefined) return;
    fd = undefined;
    await batch.syncNow(handle);
    await closeAsync(handle);
  };
  return {
    open(): void {
      if (opened) return;
      opened = true;
      lane.push(what, async (batch) => {
        await ensureOpen(batch);
      });
    },
    append(line: string): void {
      opened = true;
      const text = `${line}\n`;
      size += Buffer.byteLength(text);
      if (group && group.at === lane.pushedCount) {
        group.text += text;
        return;
      }
      const mine = { text, at: 0 };
      lane.push(what, async (batch) => {
        if (group === mine) group = undefined;
        const handle = await ensureOpen(batch);
        await writeWholeAsync(handle, Buffer.from(mine.text));
        if (options.sync) batch.syncAtEnd(handle);
      });
      mine.at = lane.pushedCount;
      group = mine;
    },
    get size(): number {
      return size;
    },
    truncate(): void {
      size = 0;
      group = undefined;
      lane.push(what, async () => {
        if (fd !== undefined) await ftruncateAsync(fd, 0);
      });
    },
    close(): void {
      group = undefined;
      lane.push(what, closeNow);
    },
    remove(): void {
      group = undefined;
      lane.push(`removing ${path}`, async (batch) => {
        await closeNow(batch);
        await rm(path, { force: true });
      });
    },
  };
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
