import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireRunLock } from '../../src/run/run-lock.js';
import { tempDir } from '../helpers/run-helpers.js';

describe('acquireRunLock', () => {
  it('a release called twice never removes the lock a later run took', () => {
    const dir = tempDir();
    const releaseFirst = acquireRunLock(dir);
    releaseFirst();
    const releaseSecond = acquireRunLock(dir);
    releaseFirst();
    expect(readFileSync(join(dir, 'run.lock'), 'utf8')).toBe(`${process.pid}\n`);
    expect(() => acquireRunLock(dir)).toThrow(/still running in this process/);
    releaseSecond();
    expect(existsSync(join(dir, 'run.lock'))).toBe(false);
  });

  it.each([
    [false, 'RUN_IN_PROGRESS', /before resuming/],
    [true, 'RUN_DIR_IN_USE', /give a fresh directory for a new run/],
  ])('held: another taker (fresh=%s) is refused with %s', (fresh, code, message) => {
    const dir = tempDir();
    const release = acquireRunLock(dir);
    expect(() => acquireRunLock(dir, { fresh })).toThrow(
      expect.objectContaining({ code, message: expect.stringMatching(message) }),
    );
    release();
  });

  it('a lock its taker has not written its pid into yet is held; one left like that long ago is stale', () => {
    const dir = tempDir();
    const lock = join(dir, 'run.lock');
    writeFileSync(lock, '');
    expect(() => acquireRunLock(dir, { fresh: true })).toThrow(/in use by a run another process is starting/);
    expect(() => acquireRunLock(dir)).toThrow(
      /still running \(another process is starting it\) before resuming/,
    );
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(lock, longAgo, longAgo);
    const release = acquireRunLock(dir, { fresh: true });
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid}\n`);
    release();
  });
});
