import { findGroupMembers, isRunning } from './find-group-members.js';
import { PROCESS_TOKEN_ENV, type ProcessEntry, type ProcessLedger } from './process-ledger.js';

export interface StoppedGroup {
  entry: ProcessEntry;
  /** Processes of ours that were still alive and were signalled. */
  pids: number[];
  /** True when some needed SIGKILL after the grace period. */
  killed: boolean;
}

const signal = (pid: number, sig: NodeJS.Signals | 0): boolean => {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
};

// Resume calls this once, before anything of the run starts again: blocking keeps resume synchronous.
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleepSync = (ms: number): void => void Atomics.wait(sleeper, 0, 0, ms);

/**
 * Stop every process group a dead run left running: SIGTERM to each of its processes that carries the
 * group's token, then SIGKILL to those still alive after `graceMs`. Processes without the token (a
 * reused pid) are left alone. Every ledger entry is cleared, whatever was found. Synchronous: it runs
 * once, at resume, before the interrupted node may start again.
 */
export function stopLeftoverProcesses(
  ledger: ProcessLedger,
  options: { graceMs?: number; onStopped?: (group: StoppedGroup) => void } = {},
): StoppedGroup[] {
  const grace = options.graceMs ?? 2000;
  const stopped: StoppedGroup[] = [];
  for (const entry of ledger.entries()) {
    const pids = findGroupMembers(entry.pgid, PROCESS_TOKEN_ENV, entry.token);
    if (pids.length > 0) {
      for (const pid of pids) signal(pid, 'SIGTERM');
      const until = Date.now() + grace;
      while (Date.now() < until && pids.some(isRunning)) sleepSync(25);
      const survivors = pids.filter(isRunning);
      for (const pid of survivors) signal(pid, 'SIGKILL');
      const group = { entry, pids, killed: survivors.length > 0 };
      stopped.push(group);
      options.onStopped?.(group);
    }
    ledger.remove(entry.pgid);
  }
  return stopped;
}
