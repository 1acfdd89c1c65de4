import path from 'node:path';
import * as z from 'zod';
import type { SessionStore } from './session-store.js';
import { StampedJsonFile } from './stamped-json-file.js';
import { type StoredSession, StoredSessionSchema } from './stored-session.js';

const SessionsFileSchema = z.object({ version: z.literal(1), sessions: z.array(StoredSessionSchema) });
type SessionsFile = z.infer<typeof SessionsFileSchema>;

/**
 * Sessions in `<data dir>/sessions.json` (mode 0600), replaced atomically at each sign-in and sign-out;
 * a signed-in person's request costs one stat while it is unchanged. Only the server writes it, and
 * synchronously, so two sign-ins never lose one another (as two `attractor token` commands can).
 */
export class FileSessionStore implements SessionStore {
  readonly #file: StampedJsonFile<SessionsFile>;

  get file(): string {
    return this.#file.file;
  }

  constructor(dataDir: string) {
    this.#file = new StampedJsonFile(
      path.join(dataDir, 'sessions.json'),
      SessionsFileSchema,
      { version: 1, sessions: [] },
      'BAD_SESSIONS_FILE',
    );
  }

  async add(session: StoredSession, now: Date): Promise<void> {
    const live = this.#file.read().sessions.filter((s) => Date.parse(s.expires_at) > now.getTime());
    this.#file.write({ version: 1, sessions: [...live, session] });
  }

  async byHash(hash: string): Promise<StoredSession | undefined> {
    return this.#file.read().sessions.find((s) => s.hash === hash);
  }

  async remove(hash: string): Promise<void> {
    const sessions = this.#file.read().sessions;
    const kept = sessions.filter((s) => s.hash !== hash);
    if (kept.length !== sessions.length) this.#file.write({ version: 1, sessions: kept });
  }

  async close(): Promise<void> {}
}
