/**
 * Sign-in through a real OpenID provider (`oidc-provider`, started here) in Chromium: the person signs
 * in, gets the roles the access file grants, starts a run and answers its gate as themselves, and signs
 * out. And a provider that is down: the server starts, /signin says what failed, tokens still work.
 */

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import Provider from 'oidc-provider';
import { chromium, type Page } from 'playwright-core';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { FileAuditLog } from '../../../src/server/audit/file-audit-log.js';
import { verifyAuditChain } from '../../../src/server/audit/verify-audit-chain.js';
import { runLink } from '../../../src/server/notify/notification.js';
import { packageRoot } from '../../../src/shared/package-root.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { seriousAxeViolations } from '../axe-check.js';
import { BROWSER_AVAILABLE, BROWSER_REQUIRED, LAUNCH } from '../browser-launch.js';
import { closeServers, GATE_PIPELINE, testServer, waitFor } from '../server-fixtures.js';
import { bearer, createToken } from './token-fixtures.js';

afterEach(closeServers);
// Screenshots to look at (test-artifacts/ is gitignored), beside the web view tests' own.
const SHOTS = path.join(packageRoot(), 'test-artifacts', 'web');

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

function files() {
  const dir = tempDir();
  const secret = path.join(dir, 'client-secret');
  writeFileSync(secret, 'a-client-secret\n');
  const access = path.join(dir, 'access.yaml');
  writeFileSync(access, 'users:\n  alice@example.com: [operator, approver]\n');
  return { secret, access };
}

/** A server with sign-in at a real OpenID provider started here; `alice` is an operator and approver. */
async function serverWithProvider() {
  const { secret, access } = files();
  const providerHttp = createServer();
  const issuer = await listening(providerHttp);
  const server = await testServer({
    oidcIssuer: issuer,
    oidcClientId: 'attractor',
    oidcClientSecretFile: secret,
    access,
  });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'attractor',
        client_secret: 'a-client-secret',
        redirect_uris: [`${server.url}/auth/callback`],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({ sub: id, email: `${id}@example.com`, email_verified: true }),
    }),
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    cookies: { keys: ['a-cookie-key'] },
  });
  providerHttp.on('request', provider.callback());
  return { server, issuer };
}

/** At the provider: log in as `login` (when it asks) and consent (when it asks), until back at `home`. */
async function signInAtProvider(page: Page, home: string, login: string): Promise<void> {
  for (let step = 0; step < 4 && !page.url().startsWith(home); step++) {
    await page.waitForSelector('button[type=submit]');
    if ((await page.locator('input[name=login]').count()) > 0) {
      await page.fill('input[name=login]', login);
      await page.fill('input[name=password]', 'anything');
    }
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
  }
  await page.waitForURL((url) => url.href.startsWith(home));
}

describe.runIf(BROWSER_AVAILABLE || BROWSER_REQUIRED)('sign-in with OpenID Connect, in Chromium', () => {
  it('signs in at a real provider, then starts and answers a run as that person; sign-out ends it', async () => {
    const { server } = await serverWithProvider();

    const browser = await chromium.launch(LAUNCH);
    onTestFinished(() => browser.close());
    const page = await browser.newPage();
    await page.goto(`${server.url}/signin`, { waitUntil: 'domcontentloaded' });
    await page.fill('input[name=login]', 'alice');
    await page.fill('input[name=password]', 'anything');
    await page.click('button[type=submit]');
    await page.waitForSelector('button[type=submit]');
    await page.click('button[type=submit]');
    await page.waitForURL(`${server.url}/`);
    const cookie = (await page.context().cookies(server.url)).find(
      (c) => c.name === '__Host-attractor_session',
    );
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax' });

    const call = (method: string, route: string, body?: unknown) =>
      page.evaluate(
        async ([m, r, b]) => {
          const response = await fetch(r as string, {
            method: m as string,
            headers: { 'content-type': 'application/json' },
            ...(b === undefined ? {} : { body: JSON.stringify(b) }),
          });
          return { status: response.status, body: await response.json() };
        },
        [method, route, body] as const,
      );
    expect((await call('GET', '/whoami')).body).toEqual({
      name: 'alice@example.com',
      kind: 'person',
      roles: ['operator', 'approver'],
    });
    const started = await call('POST', '/pipelines', { dot_source: GATE_PIPELINE, scenario: {} });
    expect(started.status).toBe(201);
    const id = started.body.id as string;
    let question: { id: string } | undefined;
    for (let i = 0; i < 400 && !question; i++) {
      question = (await call('GET', `/pipelines/${id}/questions`)).body[0];
      if (!question) await new Promise((r) => setTimeout(r, 25));
    }
    expect(question).toBeDefined();
    const answered = await call('POST', `/pipelines/${id}/questions/${question?.id}/answer`, { answer: 'S' });
    expect(answered.status).toBe(200);
    let status = '';
    for (let i = 0; i < 400 && status !== 'completed'; i++) {
      status = (await call('GET', `/pipelines/${id}`)).body.status;
      if (status !== 'completed') await new Promise((r) => setTimeout(r, 25));
    }
    expect(status).toBe('completed');
    // Recorded as that person: who started it, and (in the audit trail) who answered.
    expect((await call('GET', `/pipelines/${id}`)).body.started_by).toBe('alice@example.com');
    const audited = verifyAuditChain(await new FileAuditLog(server.dataDir).lines()).entries;
    expect(audited.map((e) => [e.who, e.action, e.outcome])).toEqual([
      ['alice@example.com', 'sign-in', 'ok'],
      ['alice@example.com', 'start', 'ok'],
      ['alice@example.com', 'answer', 'ok'],
    ]);

    expect((await call('POST', '/signout', {})).status).toBe(200);
    const afterSignOut = verifyAuditChain(await new FileAuditLog(server.dataDir).lines()).entries.at(-1);
    expect(afterSignOut).toMatchObject({ who: 'alice@example.com', action: 'sign-out', outcome: 'ok' });
    expect((await call('GET', '/whoami')).status).toBe(401);
    // Without a session the server is closed: sign-in configured is enough.
    expect((await server.json('GET', '/pipelines')).status).toBe(401);
  }, 60_000);
  it("a gate's link opened signed out: sign in, back at the run's gate, answered as that person; the sign-out button ends it", async () => {
    const { server } = await serverWithProvider();
    const ci = bearer(await createToken(['--data-dir', server.dataDir], 'ci', 'operator'));
    const started = await server.json('POST', '/pipelines', { dot_source: GATE_PIPELINE, scenario: {} }, ci);
    expect(started.status).toBe(201);
    const id = started.body.id as string;
    await waitFor(
      async () => (await server.json('GET', `/pipelines/${id}/questions`, undefined, ci)).body[0],
      'the gate',
    );

    const browser = await chromium.launch(LAUNCH);
    onTestFinished(() => browser.close());
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    mkdirSync(SHOTS, { recursive: true });
    // The link a notification carries (`runLink`), opened by someone not signed in.
    const gateLink = runLink(server.url, id, 'review');
    await page.goto(gateLink);
    const signInLink = page.locator('a#signin-link');
    await signInLink.waitFor();
    // The page offers the sign-in, from the keyboard: it has the focus.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('signin-link');
    expect(await seriousAxeViolations(page), 'sign-in page, signed out').toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'sign-in-oidc-desktop.png') });
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    await signInAtProvider(page, server.url, 'alice');

    // Back on that run's page, at that gate, which has the keyboard's focus.
    expect(page.url()).toBe(gateLink);
    await page.locator('#gate[data-stage="review"]', { hasText: 'Ship it?' }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('gate');
    await page.locator('#node-title', { hasText: 'review' }).waitFor();
    await page.locator('#whoami', { hasText: 'Signed in as alice@example.com' }).waitFor();
    expect(await seriousAxeViolations(page), 'run page at the gate, signed in').toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'gate-link-signed-in-desktop.png') });

    // Answered by its key, pressed twice at once: one answer is sent.
    const answerPosts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/answer')) answerPosts.push(r.url());
    });
    await page.keyboard.press('s');
    await page.keyboard.press('s');
    await page.locator('#run-announce', { hasText: 'Answered “[S] Ship” at review.' }).waitFor();
    await page.locator('#run-status', { hasText: 'completed' }).waitFor({ timeout: 15_000 });
    expect(answerPosts).toHaveLength(1);
    const run = (await server.json('GET', `/pipelines/${id}`, undefined, ci)).body;
    const answers = readFileSync(path.join(run.run_dir, 'events.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line.includes('"interview.complete"'))
      .map((line) => JSON.parse(line).data);
    expect(answers).toEqual([expect.objectContaining({ key: 'S', answered_by: 'alice@example.com' })]);
    // The link followed again (a double click, a second person): it opens the page and answers nothing.
    await page.reload();
    await page.locator('#run-announce', { hasText: 'No question waits at review now.' }).waitFor();
    expect(await page.locator('#gate').count()).toBe(0);
    const events = readFileSync(path.join(run.run_dir, 'events.jsonl'), 'utf8');
    expect(events.split('"interview.complete"').length - 1).toBe(1);

    // A sign-out another site's page could send with the session's cookie is refused (the cross-site
    // guard: a form cannot say JSON, and a foreign Origin is refused); the session lives on.
    const session = (await page.context().cookies(server.url)).find(
      (c) => c.name === '__Host-attractor_session',
    );
    const cookie = { cookie: `__Host-attractor_session=${session?.value}` };
    const forged = async (headers: Record<string, string>) =>
      (await fetch(`${server.url}/signout`, { method: 'POST', headers: { ...cookie, ...headers } })).status;
    expect(await forged({ 'content-type': 'application/x-www-form-urlencoded' })).toBe(415);
    expect(await forged({ 'content-type': 'application/json', origin: 'https://evil.example' })).toBe(403);
    expect((await fetch(`${server.url}/whoami`, { headers: cookie })).status).toBe(200);

    // Sign out with the button: the session ends on the server and the page offers sign-in again.
    const signedOut = page.waitForResponse((r) => new URL(r.url()).pathname === '/signout');
    await page.locator('#signout').click();
    expect((await signedOut).status()).toBe(200);
    await page.locator('#signin-error', { hasText: 'You are signed out.' }).waitFor();
    await signInLink.waitFor();
    const whoami = await page.evaluate(async () => {
      const response = await fetch('/whoami');
      return { status: response.status, body: await response.json() };
    });
    expect(whoami).toMatchObject({ status: 401, body: { error: { sign_in: '/signin' } } });
    expect((await fetch(`${server.url}/whoami`, { headers: cookie })).status).toBe(401);
    expect(await seriousAxeViolations(page), 'sign-in page, signed out by the button').toEqual([]);
  }, 90_000);

  it('a return path that leaves the server is not followed: the sign-in lands at /', async () => {
    const { server } = await serverWithProvider();
    const browser = await chromium.launch(LAUNCH);
    onTestFinished(() => browser.close());
    const page = await browser.newPage();
    for (const away of ['//evil.example/', 'https://evil.example/', '/\\evil.example/']) {
      await page.goto(`${server.url}/signin?return_to=${encodeURIComponent(away)}`);
      await signInAtProvider(page, server.url, 'alice');
      expect(page.url(), away).toBe(`${server.url}/`);
    }
  }, 60_000);
});

describe('a sign-in the provider refuses', () => {
  it('says why, and signing in again keeps where the person was going', async () => {
    const { server, issuer } = await serverWithProvider();
    const returnTo = '/#/runs/r1?node=review';
    const started = await fetch(`${server.url}/signin?return_to=${encodeURIComponent(returnTo)}`, {
      redirect: 'manual',
    });
    const authorize = new URL(started.headers.get('location') ?? '');
    expect(authorize.origin).toBe(issuer);
    // The return path stays on the server: the provider never sees it.
    expect(authorize.href).not.toContain('runs');
    const state = authorize.searchParams.get('state') ?? '';
    // The browser's sign-in cookie comes back with the provider's answer.
    const [signInCookie = ''] = started.headers.getSetCookie().map((line) => line.split(';')[0]);
    const back = await fetch(`${server.url}/auth/callback?code=not-a-code&state=${state}`, {
      redirect: 'manual',
      headers: { cookie: signInCookie },
    });
    expect(back.status).toBe(401);
    const page = await back.text();
    expect(page).toContain('Sign-in failed');
    expect(page).toContain(`href="/signin?return_to=${encodeURIComponent(returnTo)}"`);
  });
});

describe('sign-in with a provider that is down', () => {
  it('the server starts, /signin says what failed, API tokens still work', async () => {
    const { secret } = files();
    const nobody = createServer();
    const issuer = await listening(nobody);
    await new Promise<void>((resolve) => nobody.close(() => resolve()));
    const server = await testServer({
      oidcIssuer: issuer,
      oidcClientId: 'attractor',
      oidcClientSecretFile: secret,
    });
    const signin = await fetch(
      `${server.url}/signin?return_to=${encodeURIComponent('/#/runs/r1?node=review')}`,
      {
        redirect: 'manual',
      },
    );
    expect(signin.status).toBe(502);
    const page = await signin.text();
    // Trying again keeps where the person was going.
    expect(page).toContain('href="/signin?return_to=%2F%23%2Fruns%2Fr1%3Fnode%3Dreview"');
    expect(page).toContain(`The OpenID provider at ${issuer} could not be used: fetch failed`);
    expect(page).toMatch(/ECONNREFUSED.*API tokens still work\./);
    expect((await server.json('GET', '/pipelines')).status).toBe(401);
    const token = await createToken(['--data-dir', server.dataDir], 'ci', 'viewer');
    expect((await server.json('GET', '/pipelines', undefined, bearer(token))).status).toBe(200);
  });
});
