import { close, fstat, ftruncate, open, read, write } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { syncFolderAsync, writeWholeAsync } from './atomic-write.js';
import type { CommitBatch, WriteLane } from './commit-queue.js';
import type { LineFile } from './line-file.js';

const openAsync = promisify(open);
const closeAsync = promisify(close);
const fstatAsync = promisify(fstat);
const readAsync = promisify(read);
const writeAsync = promisify(write);
const ftruncateAsync = promisify(ftruncate);

/** A line file whose writes are operations of a write lane: `remove()` deletes it after its last line. */
export interface QueuedLineFile extends LineFile {
  remove(): void;
}

/**
 * `openLineFile` with every disk access queued on `lane` (`shared/commit-queue.ts`): the same file, one
 * `write` per line or per group of lines appended back to back, a torn line an earlier process left
 * ended first, the folder fsync'd when the file is new. With `durable`, the lane's batch fdatasyncs the
 * file once at its end, for every line the batch wrote; `synced()` is the lane's `settled()`.
 */
export function openQueuedLineFile(
  path: string,
  lane: WriteLane,
  options: { durable?: boolean } = {},
): QueuedLineFile {
  const durable = options.durable ?? true;
  const what = `writing ${path}`;
  let fd: number | undefined;
  let opened = false;
  let size = 0;
  // Lines not yet taken by their write, and the lane's count when they were queued: lines join the
  // group only while nothing else was queued on the lane after it (order across files is kept).
  let group: { text: string; at: number } | undefined;
  const ensureOpen = async (): Promise<number> => {
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
    } else if (durable) await syncFolderAsync(dirname(path));
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
      lane.push(what, async () => {
        await ensureOpen();
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
        const handle = await ensureOpen();
        await writeWholeAsync(handle, Buffer.from(mine.text));
        if (durable) batch.syncAtEnd(handle);
      });
      mine.at = lane.pushedCount;
      group = mine;
    },
    synced: () => lane.settled(),
    // The lane's batch syncs at its end: nothing may wait for the disk here.
    syncNow(): void {},
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
