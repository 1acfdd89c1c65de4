import type { StoredSession } from './stored-session.js';

/**
 * Where sign-in sessions are kept: a file under the server's data directory, or PostgreSQL with
 * `--store`, so a restart keeps people signed in and servers sharing a database share their sessions.
 * Only the server writes; it reads on each request of a signed-in person.
 */
export interface SessionStore {
  /** Adds `session` and drops those expired at `now` (sign-ins are rare: the cheap moment to prune). */
  add(session: StoredSession, now: Date): Promise<void>;
  byHash(hash: string): Promise<StoredSession | undefined>;
  /** Removes the session (signed out, or found expired); one already gone is not an error. */
  remove(hash: string): Promise<void>;
  close(): Promise<void>;
}
