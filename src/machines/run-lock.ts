import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AttractorError } from '../shared/errors.js';
import { removeFile } from '../shared/remove-file.js';

/**
 * `<run dir>/run.lock` holds the pid of the process running it, so a resume cannot start a second
 * process on a run that is still going. A lock left by a killed process (its pid is gone) is stale.
 */
export function acquireRunLock(runDir: string): () => void {
  const path = join(runDir, 'run.lock');
  let holder: number | undefined;
  try {
    holder = Number.parseInt(readFileSync(path, 'utf8'), 10);
  } catch {
    holder = undefined;
  }
  if (holder !== undefined && Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
    throw new AttractorError(
      'RUN_IN_PROGRESS',
      `run ${runDir} is still running in process ${holder}; stop it (Ctrl-C) before resuming.`,
    );
  }
  writeFileSync(path, `${process.pid}\n`);
  return () => removeFile(path);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
