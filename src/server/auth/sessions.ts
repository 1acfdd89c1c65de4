import { randomBytes } from 'node:crypto';
import type { Principal } from './principal.js';

export const SESSION_COOKIE = 'attractor_session';
const LIFETIME_MS = 12 * 60 * 60 * 1000;

/**
 * Signed-in people, by the random id their cookie carries. Kept in memory: a restart signs everyone
 * out (they sign in again, without a password if the provider remembers them).
 */
export class Sessions {
  readonly #open = new Map<string, { principal: Principal; until: number }>();

  open(principal: Principal, now = Date.now()): string {
    const id = randomBytes(32).toString('base64url');
    this.#open.set(id, { principal, until: now + LIFETIME_MS });
    return id;
  }

  principal(request: Request, now = Date.now()): Principal | undefined {
    const id = cookieValue(request.headers.get('cookie'), SESSION_COOKIE);
    const session = id ? this.#open.get(id) : undefined;
    if (!id || !session) return undefined;
    if (session.until > now) return session.principal;
    this.#open.delete(id);
    return undefined;
  }

  close(request: Request): void {
    const id = cookieValue(request.headers.get('cookie'), SESSION_COOKIE);
    if (id) this.#open.delete(id);
  }
}

/** `HttpOnly; Secure; SameSite=Lax`: no script reads it, it travels only over HTTPS (and to loopback). */
export function sessionCookie(id: string): string {
  return `${SESSION_COOKIE}=${id}; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=${LIFETIME_MS / 1000}`;
}

export const clearedSessionCookie = `${SESSION_COOKIE}=; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=0`;

function cookieValue(header: string | null, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}
