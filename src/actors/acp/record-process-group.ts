import { randomUUID } from 'node:crypto';
import { PROCESS_TOKEN_ENV, type ProcessLedger } from '../../shared/process/process-ledger.js';

export type ProcessRecorder = Pick<ProcessLedger, 'add' | 'remove'>;

/** A token for a group about to start, and the environment carrying it (how resume knows it is ours). */
export function processToken(env: Record<string, string>): { token: string; env: Record<string, string> } {
  const token = randomUUID();
  return { token, env: { ...env, [PROCESS_TOKEN_ENV]: token } };
}

/**
 * Records a started process group in the run's ledger (agents and their terminals), so a run killed
 * outright has them stopped by `attractor resume`. Returns the function that forgets it once it is gone.
 */
export function recordProcessGroup(
  ledger: ProcessRecorder | undefined,
  entry: { pgid: number | undefined; token: string; node: string; command: string },
): () => void {
  if (!ledger || entry.pgid === undefined) return () => {};
  const pgid = entry.pgid;
  ledger.add({
    pgid,
    token: entry.token,
    node: entry.node,
    command: entry.command,
    started_at: new Date().toISOString(),
  });
  return () => ledger.remove(pgid);
}
