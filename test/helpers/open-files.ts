import { readdirSync, readlinkSync } from 'node:fs';

/** Descriptors this process holds on files under `dir` (Linux: read from /proc/self/fd). */
export function fdsUnder(dir: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir);
    } catch {
      return false;
    }
  }).length;
}
