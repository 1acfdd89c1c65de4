import { statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AttractorError } from '../shared/errors.js';
import { readRunFile } from '../shared/read-run-file.js';
import { removePresentFile } from '../shared/remove-file.js';
import { overwriteRefusal } from './resolve-run-dir.js';

/** Locks this process holds: its own pid in a lock file does not say whether one of its runs is live. */
const heldHere = new Set<string>();

/**
 * `<run dir>/run.lock` holds the pid of the process running it, so a resume cannot start a second
 * run on a run that is still going, in another process or in this one (a library running two resumes
 * of one directory). A lock left by a killed process (its pid is gone) is stale. A new run (`fresh`)
 * takes it before writing anything in the folder: of two runs started in one folder, the second is
 * refused before it can touch the first one's files (decision 0012). The release it returns
 * may be called more than once.
 */
export function acquireRunLock(runDir: string, options: { fresh?: boolean } = {}): () => void {
  // Resolved: the same folder named two ways is one lock.
  const path = resolve(runDir, 'run.lock');
  const mine = `${process.pid}\n`;
  try {
    // Created only if absent: the usual case (a new run, a run its last process released) in one call.
    writeFileSync(path, mine, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const { holder, blank } = lockHolder(path);
    // Not a lock: a file of the user's that happens to have the name. A new run does not take it over.
    if (options.fresh && holder === undefined && !blank) throw overwriteRefusal(runDir, ['run.lock']);
    const live =
      holder === undefined
        ? justCreated(path)
        : holder === process.pid
          ? heldHere.has(path)
          : isAlive(holder);
    if (live) throw refusal(runDir, holder, options.fresh ?? false);
    writeFileSync(path, mine);
  }
  heldHere.add(path);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    heldHere.delete(path);
    removePresentFile(path);
  };
}

function refusal(runDir: string, holder: number | undefined, fresh: boolean): AttractorError {
  if (fresh) {
    const whose =
      holder === process.pid
        ? 'a run in this process'
        : holder === undefined
          ? 'a run another process is starting'
          : `a run in process ${holder}`;
    return new AttractorError(
      'RUN_DIR_IN_USE',
      `${runDir} is in use by ${whose}: give a fresh directory for a new run.`,
    );
  }
  const how =
    holder === process.pid
      ? 'in this process; cancel it or wait for its result'
      : holder === undefined
        ? '(another process is starting it)'
        : `in process ${holder}; stop it (Ctrl-C)`;
  return new AttractorError('RUN_IN_PROGRESS', `run ${runDir} is still running ${how} before resuming.`);
}

function lockHolder(path: string): { holder?: number; blank: boolean } {
  let text: string;
  try {
    text = readRunFile(path);
  } catch {
    return { blank: true };
  }
  const pid = Number.parseInt(text, 10);
  return /^\d+\n?$/.test(text) && Number.isInteger(pid)
    ? { holder: pid, blank: false }
    : { blank: text.trim() === '' };
}

/**
 * A lock without a pid in it: its taker created it and has not written the pid yet (the two are separate
 * calls), or died in between. Held while that could still be the first; stale after.
 */
const UNWRITTEN_LOCK_GRACE_MS = 10_000;

function justCreated(path: string): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs < UNWRITTEN_LOCK_GRACE_MS;
  } catch {
    return false;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether a process is running the run in `runDir` now: its `run.lock` names a live process (this one
 * only while it holds it), or was created a moment ago. A lock left by a killed process is not held.
 */
export function isRunLockHeld(runDir: string): boolean {
  const path = resolve(runDir, 'run.lock');
  const { holder, blank } = lockHolder(path);
  if (holder === undefined) return blank && justCreated(path);
  return holder === process.pid ? heldHere.has(path) : isAlive(holder);
}
