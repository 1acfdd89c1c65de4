import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A pids cgroup made for one command: the wrapper shell writes its pid to `procsFile` before it starts. */
export interface PidsCgroup {
  procsFile: string;
  /** Best effort: a cgroup still holding a process (a straggler being killed) cannot go yet. */
  remove(): void;
}

let usable: boolean | undefined;

/** Our own pids cgroup folder: cgroup v1's `pids` hierarchy, or v2's unified one. */
function ownPidsCgroup(): string | undefined {
  let lines: string[];
  try {
    lines = readFileSync('/proc/self/cgroup', 'utf8').split('\n');
  } catch {
    return undefined;
  }
  for (const line of lines) {
    const [, controllers, where] = line.split(':');
    if (where === undefined) continue;
    if (controllers?.split(',').includes('pids')) return path.join('/sys/fs/cgroup/pids', where);
    if (controllers === '' && existsSync('/sys/fs/cgroup/cgroup.controllers'))
      return path.join('/sys/fs/cgroup', where);
  }
  return undefined;
}

/**
 * A child of our pids cgroup limited to `max` processes, or undefined where none can be made (no
 * cgroup file system, not ours to write, v2 without the pids controller delegated): bubblewrap has no
 * process limit of its own, so this is the fork bound (decision 0341). Tried once per process.
 */
export function createPidsCgroup(max: number): PidsCgroup | undefined {
  if (usable === false) return undefined;
  const base = ownPidsCgroup();
  if (!base) {
    usable = false;
    return undefined;
  }
  const dir = path.join(base, `attractor-${randomUUID()}`);
  try {
    mkdirSync(dir);
  } catch {
    usable = false;
    return undefined;
  }
  const remove = () => {
    try {
      rmdirSync(dir);
    } catch {
      // busy or already gone
    }
  };
  try {
    writeFileSync(path.join(dir, 'pids.max'), String(max));
  } catch {
    remove();
    usable = false;
    return undefined;
  }
  usable = true;
  return { procsFile: path.join(dir, 'cgroup.procs'), remove };
}
