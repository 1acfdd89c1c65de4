/**
 * A callback whose sign-in cookie does not vouch for it, through a real OpenID provider: no cookie,
 * one byte of its MAC or payload changed, expired, or the cookie of another sign-in (login CSRF: an
 * attacker's callback in a victim's browser). Each is refused with 401 and its reason, opens no session,
 * clears the cookie, and offers "Sign in again" keeping the return path only when the cookie is
 * trustworthy. The untouched cookie then still finishes the sign-in: the refusal was the cookie's.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SIGN_IN_COOKIE, SignInCookie } from '../../../src/server/auth/sign-in-cookie.js';
import { type RunningServer, startServer } from '../../../src/server/start-server.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { type CookieJar, finishAtCallback, oidcProvider, signInUntilCallback } from './oidc-fixtures.js';

const running = new Set<RunningServer>();
afterEach(async () => {
  for (const server of running) await server.close();
  running.clear();
});

const RETURN_TO = '/#/runs/r1?node=review';
const AGAIN_WITH_RETURN = `href="/signin?return_to=${encodeURIComponent(RETURN_TO)}"`;

/** A base64url character other than `text[at]`. */
const flip = (text: string, at: number): string =>
  `${text.slice(0, at)}${text[at] === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`;

interface Attempt {
  server: string;
  issuer: string;
  callback: URL;
  /** The cookie `/signin` set in this browser. */
  cookie: string;
}

interface Case {
  name: string;
  /** What the browser sends instead: the callback and its sign-in cookie (`undefined`: none). */
  change(attempt: Attempt): Promise<{ callback: URL; cookie: string | undefined }>;
  reason: RegExp;
  code: string;
  again: string;
}

const key = (issuer: string) =>
  new SignInCookie({ clientSecret: 'a-client-secret', issuer, clientId: 'attractor' });

const CASES: Case[] = [
  {
    name: 'no cookie',
    change: async ({ callback }) => ({ callback, cookie: undefined }),
    reason:
      /this browser has no sign-in in progress: it was started in another browser, more than 10 minutes ago, or with cookies blocked\./,
    code: 'SIGN_IN_COOKIE_MISSING',
    again: 'href="/signin"',
  },
  {
    name: 'one byte of the MAC changed',
    change: async ({ callback, cookie }) => ({ callback, cookie: flip(cookie, cookie.lastIndexOf('.') + 5) }),
    reason: /sign-in cookie was altered, or made by a server with another OpenID client: it is not trusted\./,
    code: 'SIGN_IN_COOKIE_TAMPERED',
    again: 'href="/signin"',
  },
  {
    name: 'one byte of the payload changed',
    change: async ({ callback, cookie }) => ({ callback, cookie: flip(cookie, 10) }),
    reason: /sign-in cookie was altered/,
    code: 'SIGN_IN_COOKIE_TAMPERED',
    again: 'href="/signin"',
  },
  {
    name: 'expired',
    change: async ({ callback, cookie, issuer }) => {
      const read = key(issuer).read(cookie, Date.now());
      if (read.kind !== 'valid') throw new Error(`the server's own cookie reads as ${read.kind}`);
      return { callback, cookie: key(issuer).seal({ ...read.signIn, expiresAt: Date.now() - 1_000 }) };
    },
    reason: /the sign-in took longer than 10 minutes at the provider\./,
    code: 'SIGN_IN_EXPIRED',
    again: AGAIN_WITH_RETURN,
  },
  {
    name: "another sign-in's state (an attacker's callback in this browser)",
    change: async ({ server, cookie }) => {
      const attacker = await signInUntilCallback(server, 'mallory');
      return { callback: attacker.callback, cookie };
    },
    reason: /the provider's answer is not for the sign-in this browser started last/,
    code: 'SIGN_IN_STATE_MISMATCH',
    again: AGAIN_WITH_RETURN,
  },
];

const storedSessions = (dataDir: string): unknown[] => {
  try {
    return JSON.parse(readFileSync(path.join(dataDir, 'sessions.json'), 'utf8')).sessions;
  } catch {
    return [];
  }
};

const signInCookieOf = (jar: CookieJar, url: URL): string => jar.get(`${url.origin} ${SIGN_IN_COOKIE}`) ?? '';

describe.each(CASES)('a callback with $name', ({ change, reason, code, again }) => {
  it('is refused saying why, opens no session, and the untouched cookie still finishes it', async () => {
    const dataDir = tempDir();
    const provider = await oidcProvider({ alice: [], mallory: [] });
    const server = await startServer({ port: 0, dataDir, ...provider.serverOptions });
    running.add(server);
    provider.serve(server.url);
    const { callback, jar } = await signInUntilCallback(server.url, 'alice', { returnTo: RETURN_TO });
    const cookie = signInCookieOf(jar, callback);

    const sent = await change({ server: server.url, issuer: provider.issuer, callback, cookie });
    const refused = await fetch(sent.callback, {
      redirect: 'manual',
      headers: sent.cookie === undefined ? {} : { cookie: `${SIGN_IN_COOKIE}=${sent.cookie}` },
    });
    const page = await refused.text();
    expect(refused.status, page).toBe(401);
    expect(page).toContain('Sign-in failed');
    expect(page.replaceAll('&#39;', "'")).toMatch(reason);
    expect(page).toContain(again);
    expect(refused.headers.getSetCookie()).toEqual([
      `${SIGN_IN_COOKIE}=; Path=/auth/callback; HttpOnly; Secure; SameSite=Lax; Max-Age=0`,
    ]);
    expect(storedSessions(dataDir)).toEqual([]);
    const trail = readFileSync(path.join(dataDir, 'audit.jsonl'), 'utf8');
    expect(trail).toContain(`"error_code":"${code}"`);

    const finished = await finishAtCallback(callback, jar);
    expect(finished.status, await finished.text()).toBe(302);
    expect(finished.headers.get('location')).toBe(RETURN_TO);
    expect(storedSessions(dataDir)).toHaveLength(1);
  });
});
