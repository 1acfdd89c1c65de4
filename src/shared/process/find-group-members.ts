import { existsSync, readdirSync, readFileSync } from 'node:fs';

/**
 * Pids of the live processes in process group `pgid` that carry `token` in their environment
 * (`/proc`, Linux). The token is what makes a process ours: a pid or pgid the kernel has since given
 * to an unrelated program never has it, so it is never signalled.
 */
export function findGroupMembers(pgid: number, tokenVariable: string, token: string): number[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const marker = `${tokenVariable}=${token}`;
  const members: number[] = [];
  for (const name of pids) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Fields after the command name, which may itself hold spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // fields[0] is the state: a zombie has finished, it only waits to be reaped.
      if (Number(fields[2]) !== pgid || fields[0] === 'Z') continue;
      const environ = readFileSync(`/proc/${name}/environ`, 'utf8').split('\0');
      if (environ.includes(marker)) members.push(Number(name));
    } catch {
      // exited while we looked, or not ours to read
    }
  }
  return members;
}

/** True while `pid` runs (a zombie does not count; without /proc, whether it can be signalled). */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] !== 'Z';
  } catch {
    try {
      process.kill(pid, 0);
      return !existsSync('/proc/self');
    } catch {
      return false;
    }
  }
}

/**
 * True while some process of group `pgid` runs. Zombies do not count: under an init that never reaps
 * (a container's), a sandbox's exited reaper stays a zombie in the group for good. Without /proc,
 * whether the group can be signalled.
 */
export function groupRunning(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return true;
  }
  return pids.some((name) => {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(fields[2]) === pgid && fields[0] !== 'Z';
    } catch {
      return false;
    }
  });
}
