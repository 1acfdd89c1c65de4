import { readFileSync } from 'node:fs';

/** Alive and not a zombie: an unreaped zombie (no init reaping in a container) holds nothing any more. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
