import { FileSessionStore } from './file-session-store.js';
import { PostgresSessionStore } from './postgres-session-store.js';
import type { SessionStore } from './session-store.js';

/** The session store that goes with a server's run store: PostgreSQL with `--store`, else the data dir's file. */
export async function openSessionStore(where: {
  dataDir: string;
  store?: string | undefined;
}): Promise<SessionStore> {
  return where.store ? PostgresSessionStore.open(where.store) : new FileSessionStore(where.dataDir);
}
