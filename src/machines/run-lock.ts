import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AttractorError } from '../shared/errors.js';
import { removePresentFile } from '../shared/remove-file.js';

/**
 * `<run dir>/run.lock` holds the pid of the process running it, so a resume cannot start a second
 * process on a run that is still going. A lock left by a killed process (its pid is gone) is stale.
 */
export function acquireRunLock(runDir: string): () => void {
  const path = join(runDir, 'run.lock');
  const mine = `${process.pid}\n`;
  try {
    // Created only if absent: the usual case (a new run, a run its last process released) in one call.
    writeFileSync(path, mine, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const holder = lockHolder(path);
    if (holder !== undefined && holder !== process.pid && isAlive(holder)) {
      throw new AttractorError(
        'RUN_IN_PROGRESS',
        `run ${runDir} is still running in process ${holder}; stop it (Ctrl-C) before resuming.`,
      );
    }
    writeFileSync(path, mine);
  }
  return () => removePresentFile(path);
}

function lockHolder(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8'), 10);
    return Number.isInteger(pid) ? pid : undefined;
  } catch {
    return undefined;
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
