import { closeSync, fsync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { tempPathFor } from './atomic-write.js';

/** An atomic write whose fsync runs on the thread pool while the caller goes on. */
export interface DeferredAtomicWrite {
  /**
   * Put the file in place with its content on disk: fsyncs now unless the background fsync has already
   * reported (an fsync of data already flushed returns at once anyway), then renames. Idempotent;
   * throws what the write met. The folder is not fsync'd. A no-op after `abandon()`.
   */
  settle(): void;
  /** `settle()` off the event loop: waits for the background fsync, then renames on the thread pool. */
  settleAsync(): Promise<void>;
  /** Give the write up: the temp file goes and the target is never touched. A no-op once settled. */
  abandon(): void;
}

/**
 * `writeFileAtomic` with its fsync moved off the caller's path (decision 0055): the temp file is
 * written now and fsync'd on the thread pool; the caller renames it into place with `settle()` when it
 * needs the file. The name appears only then, with its content on disk, so a crash leaves either no file
 * or the whole one, never an empty one, and files settled in an order appear in that order.
 *
 * The fd stays open until the background fsync has reported: only its callback closes it, so the thread
 * pool never fsyncs a descriptor number that was closed and reused.
 */
export function deferredAtomicWrite(path: string, data: string): DeferredAtomicWrite {
  const tmp = tempPathFor(path);
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, data);
  } catch (error) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  }
  let state: 'writing' | 'synced' | 'placed' | 'abandoned' = 'writing';
  let failure: unknown;
  const dropTemp = (): void => {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // Nothing to lose: the temp file held a copy the caller gave up on or could not place.
    }
  };
  const fail = (error: unknown): void => {
    failure ??= error;
    dropTemp();
  };
  let reported: () => void = () => {};
  const synced = new Promise<void>((resolve) => {
    reported = resolve;
  });
  fsync(fd, (error) => {
    reported();
    try {
      closeSync(fd);
    } catch {
      // Closing cannot lose data the fsync reported on; a throw here would be uncaught.
    }
    if (state !== 'writing' || failure !== undefined) return;
    if (error) fail(error);
    else state = 'synced';
  });
  return {
    settle(): void {
      if (state === 'placed' || state === 'abandoned') return;
      if (failure === undefined && state === 'writing') {
        try {
          fsyncSync(fd);
        } catch (error) {
          fail(error);
        }
      }
      if (failure === undefined) {
        try {
          renameSync(tmp, path);
          state = 'placed';
        } catch (error) {
          fail(error);
        }
      }
      if (failure !== undefined) throw failure;
    },
    async settleAsync(): Promise<void> {
      if (state === 'placed' || state === 'abandoned') return;
      await synced;
      if (failure === undefined && state === 'synced') {
        try {
          await rename(tmp, path);
          state = 'placed';
        } catch (error) {
          fail(error);
        }
      }
      if (failure !== undefined) throw failure;
    },
    abandon(): void {
      if (state === 'placed' || state === 'abandoned') return;
      state = 'abandoned';
      dropTemp();
    },
  };
}
