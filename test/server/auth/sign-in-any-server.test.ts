/**
 * A sign-in in progress lives in the browser's `attractor_signin` cookie, so it finishes at whichever
 * server the browser reaches next: another one behind a load balancer with no stickiness (PostgreSQL,
 * the setup where servers share sessions), or the same one restarted in between (a deploy). Refusals:
 * sign-in-cookie-refusals.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { SIGN_IN_COOKIE } from '../../../src/server/auth/sign-in-cookie.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { startedServers } from '../started-servers.js';
import { loadBalancer } from './load-balancer.js';
import {
  type CookieJar,
  finishAtCallback,
  oidcProvider,
  signInUntilCallback,
  signInWithFetch,
} from './oidc-fixtures.js';

const withPostgres = PG_AVAILABLE || PG_REQUIRED;
const cluster = withPostgres ? postgresClusterForFile(120_000) : undefined;

const { serve, stop } = startedServers();

async function whoami(url: string, cookie: string) {
  const response = await fetch(`${url}/whoami`, { headers: { cookie } });
  return { status: response.status, body: await response.json() };
}

const sessionCookie = (jar: CookieJar, url: string): string =>
  `__Host-attractor_session=${jar.get(`${new URL(url).origin} __Host-attractor_session`) ?? ''}`;

describe('a sign-in finishes at whichever server the browser reaches', () => {
  it.runIf(withPostgres)('started at server A, finished at server B of the same database', async () => {
    const store = (await cluster?.createDatabase('signin_any_server')) ?? '';
    const provider = await oidcProvider({ alice: ['platform'] });
    let a = '';
    let b = '';
    // The balancer sends the sign-in's start to A and everything after it to B.
    const balancer = await loadBalancer((request) => (request.url?.startsWith('/signin') ? a : b));
    const options = { ...provider.serverOptions, store, allowedHosts: [balancer.host] };
    a = (await serve({ ...options, dataDir: tempDir() })).url;
    b = (await serve({ ...options, dataDir: tempDir() })).url;
    provider.serve(balancer.url);

    const cookie = await signInWithFetch(balancer.url, 'alice');
    expect(balancer.answered).toEqual([
      { path: '/signin', by: a },
      { path: '/auth/callback', by: b },
    ]);
    expect(await whoami(a, cookie)).toMatchObject({ status: 200, body: { name: 'alice@example.com' } });
  });

  it('started before a restart, finished after it (file store)', async () => {
    const dataDir = tempDir();
    const provider = await oidcProvider({ alice: [] });
    let serving = '';
    const balancer = await loadBalancer(() => serving);
    const options = { ...provider.serverOptions, dataDir, allowedHosts: [balancer.host] };
    const first = await serve(options);
    serving = first.url;
    provider.serve(balancer.url);

    const { callback, jar } = await signInUntilCallback(balancer.url, 'alice', { returnTo: '/#/runs/r1' });
    await stop(first);
    const restarted = await serve(options);
    serving = restarted.url;

    const answer = await finishAtCallback(callback, jar);
    expect(answer.status, await answer.text()).toBe(302);
    expect(answer.headers.get('location')).toBe('/#/runs/r1');
    expect([...jar.keys()].some((key) => key.endsWith(` ${SIGN_IN_COOKIE}`))).toBe(false);
    expect(await whoami(restarted.url, sessionCookie(jar, balancer.url))).toMatchObject({ status: 200 });
  });
});
