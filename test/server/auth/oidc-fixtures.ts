/**
 * A real OpenID provider (`oidc-provider`) started in the test, and a sign-in through it without a
 * browser: `fetch` follows the redirects, keeps the cookies and posts the provider's login and consent
 * forms as a browser would. What the server gets is the provider's real answer (code, PKCE, ID token,
 * UserInfo), so the session it opens is the one a person signing in would have.
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import Provider from 'oidc-provider';
import { onTestFinished } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.js';

/** The people the provider knows, by login: their groups (the `groups` claim). */
export type Directory = Readonly<Record<string, readonly string[]>>;

/**
 * Starts the provider's socket; `serve(callbackUrl)` attaches the provider once the server's URL is known.
 * Everyone's email is `<login>@example.com`, verified, except the logins in `unverified`: the address
 * they gave themselves, which the provider says it has not verified.
 */
export async function oidcProvider(directory: Directory, unverified: Readonly<Record<string, string>> = {}) {
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => http.close(() => resolve())));
  const address = http.address();
  const issuer = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const secretFile = path.join(tempDir(), 'client-secret');
  writeFileSync(secretFile, 'a-client-secret\n');
  const serve = (serverUrl: string): void => {
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: 'attractor',
          client_secret: 'a-client-secret',
          redirect_uris: [`${serverUrl}/auth/callback`],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      findAccount: (_ctx, id) => ({
        accountId: id,
        claims: () => ({
          sub: id,
          email: unverified[id] ?? `${id}@example.com`,
          email_verified: unverified[id] === undefined,
          groups: [...(directory[id] ?? [])],
        }),
      }),
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['groups'] },
      cookies: { keys: ['a-cookie-key'] },
    });
    http.on('request', provider.callback());
  };
  const serverOptions = { oidcIssuer: issuer, oidcClientId: 'attractor', oidcClientSecretFile: secretFile };
  return { issuer, serverOptions, serve };
}

/** Cookies by origin and name, as a browser keeps them (paths and attributes aside). */
export type CookieJar = Map<string, string>;

/** The `Cookie` header the jar sends to `url`'s origin. */
export function cookiesFor(jar: CookieJar, url: URL): string {
  const own = [...jar].filter(([key]) => key.startsWith(`${url.origin} `));
  return own.map(([key, value]) => `${key.split(' ')[1]}=${value}`).join('; ');
}

/** Keeps the cookies a response sets (an empty value clears one). */
export function keepCookies(jar: CookieJar, url: URL, response: Response): void {
  for (const line of response.headers.getSetCookie()) {
    const [pair = ''] = line.split(';');
    const at = pair.indexOf('=');
    const key = `${url.origin} ${pair.slice(0, at)}`;
    if (at + 1 === pair.length) jar.delete(key);
    else jar.set(key, pair.slice(at + 1));
  }
}

/**
 * Starts a sign-in at `serverUrl`'s `/signin` and answers the provider as `login`, stopping where the
 * provider sends the browser back: the callback URL (with its code and state), not yet asked, and the
 * jar (with the sign-in cookie the server set). `returnTo` is asked for as `/signin?return_to=`.
 */
export async function signInUntilCallback(
  serverUrl: string,
  login: string,
  { jar = new Map(), returnTo }: { jar?: CookieJar; returnTo?: string } = {},
): Promise<{ callback: URL; jar: CookieJar }> {
  const callbackPath = new URL('/auth/callback', serverUrl);
  const start = new URL('/signin', serverUrl);
  if (returnTo !== undefined) start.searchParams.set('return_to', returnTo);
  let request: { url: URL; init: RequestInit } = { url: start, init: {} };
  for (let hop = 0; hop < 20; hop++) {
    const response = await fetch(request.url, {
      ...request.init,
      redirect: 'manual',
      headers: { ...request.init.headers, cookie: cookiesFor(jar, request.url) },
    });
    keepCookies(jar, request.url, response);
    const location = response.headers.get('location');
    if (location !== null) {
      await response.body?.cancel();
      const next = new URL(location, request.url);
      if (next.origin + next.pathname === callbackPath.href) return { callback: next, jar };
      request = { url: next, init: {} };
      continue;
    }
    request = formSubmission(request.url, await response.text(), login);
  }
  throw new Error(`the provider never sent ${login} back to ${callbackPath.href}`);
}

/** Asks the callback as the browser would, keeping the cookies it sets. */
export async function finishAtCallback(callback: URL, jar: CookieJar): Promise<Response> {
  const response = await fetch(callback, {
    redirect: 'manual',
    headers: { cookie: cookiesFor(jar, callback) },
  });
  keepCookies(jar, callback, response);
  return response;
}

/** Signs `login` in at the server's `/signin`; returns the `Cookie` header of the session it opened. */
export async function signInWithFetch(serverUrl: string, login: string): Promise<string> {
  const { callback, jar } = await signInUntilCallback(serverUrl, login);
  const response = await finishAtCallback(callback, jar);
  await response.body?.cancel();
  const session = jar.get(`${new URL(serverUrl).origin} __Host-attractor_session`);
  if (!session) throw new Error(`${login} was not signed in: the server set no session cookie`);
  return `__Host-attractor_session=${session}`;
}

/** The provider's login or consent page, answered: its form's action with its `prompt` (and a login). */
function formSubmission(page: URL, html: string, login: string): { url: URL; init: RequestInit } {
  const action = /<form[^>]* action="([^"]+)"/.exec(html)?.[1];
  const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
  if (!action || !prompt) throw new Error(`no sign-in form at ${page.href}: ${html.slice(0, 200)}`);
  const fields = new URLSearchParams({ prompt, ...(prompt === 'login' ? { login, password: 'any' } : {}) });
  return {
    url: new URL(decodeEntities(action), page),
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: fields.toString(),
    },
  };
}

const decodeEntities = (text: string): string =>
  text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&amp;/g, '&');
