import { closeSync, fsync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** An atomic write whose fsync runs on the thread pool while the caller goes on. */
export interface DeferredAtomicWrite {
  /**
   * Make sure the file is in place with its content on disk: returns at once when the background fsync
   * already finished and the file was renamed; otherwise fsyncs (again: a no-op for data already
   * flushed) and renames now. Idempotent; throws what the write met. The folder is not fsync'd.
   */
  settle(): void;
  /** Give the write up: the temp file goes and the target is never touched. No-op once it is in place. */
  abandon(): void;
}

let counter = 0;

/**
 * `writeFileAtomic` with its fsync moved off the caller's path (docs/decisions.md D28.1): the temp file is
 * written now and fsync'd on the thread pool; the rename follows when that fsync reports back, or in
 * `settle()` if the caller needs the file first. Nobody sees the target name before its content is on
 * disk, so a crash leaves either no file or the whole one, never an empty one.
 *
 * The fd stays open until the background fsync has reported: `settle()` never closes it, so the thread
 * pool never fsyncs a descriptor number that was closed and reused.
 */
export function deferredAtomicWrite(path: string, data: string): DeferredAtomicWrite {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${++counter}.tmp`);
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, data);
  } catch (error) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  }
  let renamed = false;
  let abandoned = false;
  let failure: unknown;
  const dropTemp = (): void => {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // Nothing to lose: the temp file held a copy the caller gave up on or could not place.
    }
  };
  const place = (): void => {
    try {
      renameSync(tmp, path);
      renamed = true;
    } catch (error) {
      failure = error;
      dropTemp();
    }
  };
  fsync(fd, (error) => {
    try {
      closeSync(fd);
    } catch {
      // Closing cannot lose data the fsync reported on; a throw here would be uncaught.
    }
    if (renamed || abandoned || failure !== undefined) return;
    if (error) {
      failure = error;
      dropTemp();
    } else place();
  });
  return {
    settle(): void {
      if (!renamed && !abandoned && failure === undefined) {
        try {
          fsyncSync(fd);
        } catch (error) {
          failure = error;
          dropTemp();
        }
        if (failure === undefined) place();
      }
      if (failure !== undefined) throw failure;
    },
    abandon(): void {
      if (renamed || abandoned) return;
      abandoned = true;
      dropTemp();
    },
  };
}
