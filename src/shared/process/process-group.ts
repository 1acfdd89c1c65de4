import type { ChildProcess } from 'node:child_process';

/** Signal every process of the group; ESRCH (all gone already) is the normal case, not an error. */
export function killGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Lets a gated shell go on: it waits for one line on fd 3 until its process group is in the ledger
 * (`process-ledger.ts`), so a crash between spawn and record cannot leave an unrecorded group running.
 */
export function openGate(child: ChildProcess): void {
  const gate = child.stdio[3] as NodeJS.WritableStream;
  // A group killed before its shell read the line (cancelled at once) resets the socket: an 'error'
  // with no listener would be an uncaught exception that ends the whole run. Nothing is lost.
  gate.on('error', () => undefined);
  gate.end('\n');
}
