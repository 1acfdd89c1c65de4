import { openRoleStore } from './open-role-store.js';
import { openSessionStore } from './open-session-store.js';
import { openTokenStore } from './open-token-store.js';
import type { RoleStore } from './role-store.js';
import type { SessionStore } from './session-store.js';
import { Sessions } from './sessions.js';
import type { TokenStore } from './token-store.js';

/** The stores a server's auth reads on each request, all where its runs are kept; `close` ends them all. */
export interface AuthStores {
  readonly tokens: TokenStore;
  readonly roles: RoleStore;
  /** Sign-in sessions, when sign-in is configured. */
  readonly sessions?: Sessions | undefined;
  close(): Promise<void>;
}

/** Opens them in turn; one that fails closes those already open before the error goes on. */
export async function openAuthStores(
  where: { dataDir: string; store?: string | undefined },
  signIn: boolean,
): Promise<AuthStores> {
  const opened: { close(): Promise<void> }[] = [];
  const close = async (): Promise<void> => {
    for (const store of opened.splice(0).reverse()) await store.close();
  };
  const open = async <T extends { close(): Promise<void> }>(store: Promise<T>): Promise<T> => {
    const ready = await store;
    opened.push(ready);
    return ready;
  };
  try {
    const tokens = await open(openTokenStore(where));
    const roles = await open(openRoleStore(where));
    const sessionStore: SessionStore | undefined = signIn ? await open(openSessionStore(where)) : undefined;
    return { tokens, roles, sessions: sessionStore && new Sessions(sessionStore), close };
  } catch (error) {
    await close();
    throw error;
  }
}
