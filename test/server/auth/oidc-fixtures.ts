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

/** Starts the provider's socket; `serve(callbackUrl)` attaches the provider once the server's URL is known. */
export async function oidcProvider(directory: Directory) {
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
        claims: () => ({ sub: id, email: `${id}@example.com`, groups: [...(directory[id] ?? [])] }),
      }),
      claims: { openid: ['sub'], email: ['email'], profile: ['groups'] },
      cookies: { keys: ['a-cookie-key'] },
    });
    http.on('request', provider.callback());
  };
  const serverOptions = { oidcIssuer: issuer, oidcClientId: 'attractor', oidcClientSecretFile: secretFile };
  return { issuer, serverOptions, serve };
}

/** Signs `login` in at the server's `/signin`; returns the `Cookie` header of the session it opened. */
export async function signInWithFetch(serverUrl: string, login: string): Promise<string> {
  const jar = new Map<string, string>();
  let request: { url: URL; init: RequestInit } = { url: new URL('/signin', serverUrl), init: {} };
  for (let hop = 0; hop < 20; hop++) {
    const cookie = [...jar].filter(([key]) => key.startsWith(`${request.url.origin} `));
    const response = await fetch(request.url, {
      ...request.init,
      redirect: 'manual',
      headers: {
        ...request.init.headers,
        cookie: cookie.map(([key, v]) => `${key.split(' ')[1]}=${v}`).join('; '),
      },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      jar.set(`${request.url.origin} ${pair.slice(0, at)}`, pair.slice(at + 1));
    }
    const location = response.headers.get('location');
    if (location !== null) {
      await response.body?.cancel();
      const next = new URL(location, request.url);
      if (next.href === new URL('/', serverUrl).href) break;
      request = { url: next, init: {} };
      continue;
    }
    request = formSubmission(request.url, await response.text(), login);
  }
  const session = jar.get(`${new URL(serverUrl).origin} attractor_session`);
  if (!session) throw new Error(`${login} was not signed in: the server set no session cookie`);
  return `attractor_session=${session}`;
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
