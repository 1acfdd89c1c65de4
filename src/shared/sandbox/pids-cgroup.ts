import { randomUUID } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
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
  if (usable === undefined) sweep(base);
  const dir = path.join(base, `attractor-${randomUUID()}`);
  try {
    mkdirSync(dir);
  } catch {
    usable = false;
    return undefined;
  }
  // A cgroup is busy while a member is left, a zombie included (a sandbox's reaper under an init that
  // never reaps): tried again a few times, and whatever is left is swept by the next process.
  const remove = () => {
    let tries = 0;
    const attempt = () => {
      try {
        rmdirSync(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EBUSY' && ++tries < 5)
          setTimeout(attempt, 200 * tries).unref();
      }
    };
    attempt();
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

/** Empty cgroups earlier commands left (their removal found them busy), a minute old or more; a busy one stays. */
function sweep(base: string): void {
  let names: string[];
  try {
    names = readdirSync(base).filter((name) => name.startsWith('attractor-'));
  } catch {
    return;
  }
  for (const name of names) {
    try {
      // Not one another process has just made and not yet joined.
      if (Date.now() - statSync(path.join(base, name)).mtimeMs < 60_000) continue;
      rmdirSync(path.join(base, name));
    } catch {
      // still in use, or not ours to remove
    }
  }
}
