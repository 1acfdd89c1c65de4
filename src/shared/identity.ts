import { userInfo } from 'node:os';

/**
 * Who did something to a run — started, answered, cancelled, resumed or forked it — as it is recorded
 * (`started_by`, `answered_by`, `cancelled_by`, `resumed_by`, `forked_by`): a plain string, so a
 * server that knows people (named tokens, a signed-in user) records them with no change of format.
 * Resolved once at the edge: per request by the server (`server/request-identity.ts`), from the OS
 * user by the CLI, the TUI and `attach` (decision 0410).
 */
export type Identity = string;

/** A request that carried the server's single `--token`. */
export const TOKEN_IDENTITY: Identity = 'token';

/** A request to a server started without a token: anyone who could reach it. */
export const ANONYMOUS_IDENTITY: Identity = 'anonymous';

/** The person at this terminal: the OS user this process runs as. */
export function localIdentity(env: Readonly<Record<string, string | undefined>> = process.env): Identity {
  try {
    const name = userInfo().username;
    if (name !== '') return name;
  } catch {
    // No passwd entry for this uid (a container's arbitrary user): the environment may still say.
  }
  return env['USER'] ?? env['LOGNAME'] ?? 'unknown';
}
