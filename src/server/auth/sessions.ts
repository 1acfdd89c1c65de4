import { randomBytes } from 'node:crypto';
import type { SignedInPerson } from './access-file.js';
import { tokenHash } from './api-token.js';
import { cookieValue } from './cookie-value.js';
import type { Principal } from './principal.js';
import type { SessionStore } from './session-store.js';

export const SESSION_COOKIE = '__Host-attractor_session';
const LIFETIME_MS = 12 * 60 * 60 * 1000;

/** What a request's session cookie comes to: no cookie, a signed-in person, or why it no longer counts. */
export type SessionLookup =
  | { readonly kind: 'none' }
  | { readonly kind: 'person'; readonly principal: Principal }
  | { readonly kind: 'refused'; readonly reason: string };

/**
 * Signed-in people, by the random id their cookie carries; the store keeps only its SHA-256 (the id is
 * 32 random bytes, so a plain hash makes the stored form useless, as for tokens). Kept in the server's
 * store: a restart or a deploy signs no one out, and servers sharing a database share sessions.
 */
export class Sessions {
  readonly #store: SessionStore;

  constructor(store: SessionStore) {
    this.#store = store;
  }

  /** A new session for `person`; returns the id for the cookie. Expired sessions are pruned meanwhile. */
  async open(person: SignedInPerson, now = new Date()): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    const expires = new Date(now.getTime() + LIFETIME_MS);
    const stored = { hash: tokenHash(id), person: storedPerson(person) };
    await this.#store.add(
      { ...stored, created_at: now.toISOString(), expires_at: expires.toISOString() },
      now,
    );
    return id;
  }

  /** The person the request's cookie signs in; roles are left to `currentRoles`, on every request. */
  async lookup(request: Request, now: Date): Promise<SessionLookup> {
    const id = cookieValue(request.headers.get('cookie'), SESSION_COOKIE);
    if (!id) return { kind: 'none' };
    const session = await this.#store.byHash(tokenHash(id));
    if (!session)
      return {
        kind: 'refused',
        reason: 'the session is not known here (signed out, or ended): sign in again at /signin.',
      };
    if (Date.parse(session.expires_at) <= now.getTime()) {
      await this.#store.remove(session.hash);
      return {
        kind: 'refused',
        reason: `the session ended at ${session.expires_at}: sign in again at /signin.`,
      };
    }
    const { person } = session;
    return {
      kind: 'person',
      principal: { name: person.email ?? person.subject, kind: 'person', roles: [], person },
    };
  }

  /** Signs the request's session out, on every server sharing the store. */
  async close(request: Request): Promise<void> {
    const id = cookieValue(request.headers.get('cookie'), SESSION_COOKIE);
    if (id) await this.#store.remove(tokenHash(id));
  }
}

const storedPerson = ({ subject, email, groups }: SignedInPerson) => ({
  subject,
  ...(email !== undefined ? { email } : {}),
  groups: [...groups],
});

/** `HttpOnly; Secure; SameSite=Lax`: no script reads it, it travels only over HTTPS (and to loopback). */
export function sessionCookie(id: string): string {
  return `${SESSION_COOKIE}=${id}; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=${LIFETIME_MS / 1000}`;
}

export const clearedSessionCookie = `${SESSION_COOKIE}=; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=0`;
