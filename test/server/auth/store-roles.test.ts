/**
 * Roles kept in the store, on both stores: a person signed in through a real OpenID provider holds
 * what `--access FILE` grants and what `attractor role` (or an admin's `/roles` request) grants; a
 * revoke takes effect on their next request, in the same session; each change is in the audit trail,
 * which verifies, and an edited line still breaks it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openAuditLog } from '../../../src/server/audit/open-audit-log.js';
import { verifyAuditChain } from '../../../src/server/audit/verify-audit-chain.js';
import { localIdentity } from '../../../src/shared/identity.js';
import { runCli } from '../../cli/run-cli.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { closeServers, LINEAR_PIPELINE, type TestServer, testServer } from '../server-fixtures.js';
import { oidcProvider, signInWithFetch } from './oidc-fixtures.js';
import { bearer, createToken, type StoreArgs } from './token-fixtures.js';

afterEach(closeServers);

const withPostgres = PG_AVAILABLE || PG_REQUIRED;
const cluster = withPostgres ? postgresClusterForFile(120_000) : undefined;

interface Store {
  name: string;
  url(): Promise<string | undefined>;
}
const STORES: Store[] = [
  { name: 'file store', url: async () => undefined },
  ...(withPostgres ? [{ name: 'PostgreSQL', url: async () => cluster?.createDatabase('store_roles') }] : []),
];

/** A server with sign-in whose access file makes alice a viewer; alice is in the provider's `platform` group. */
async function signedInServer(url: string | undefined) {
  const provider = await oidcProvider({ alice: ['platform'] });
  const access = path.join(tempDir(), 'access.yaml');
  writeFileSync(access, 'users:\n  alice@example.com: [viewer]\n');
  const server = await testServer({ ...provider.serverOptions, access, ...(url ? { store: url } : {}) });
  provider.serve(server.url);
  const where: StoreArgs = url ? ['--store', url] : ['--data-dir', server.dataDir];
  const cookie = await signInWithFetch(server.url, 'alice');
  const asAlice = (method: string, route: string, body?: unknown) =>
    server.json(method, route, body, { cookie });
  return { server, where, asAlice };
}

const start = { dot_source: LINEAR_PIPELINE, dry_run: true };
const rolesOf = async (asAlice: (m: string, r: string) => Promise<{ body: { roles: string[] } }>) =>
  [...(await asAlice('GET', '/whoami')).body.roles].sort();

async function roleEntries(where: { dataDir: string; store?: string | undefined }) {
  const log = await openAuditLog(where);
  const verdict = verifyAuditChain(await log.lines());
  await log.close();
  expect(verdict.ok).toBe(true);
  return verdict.entries
    .filter((e) => e.action.startsWith('role-'))
    .map((e) => [e.who, e.action, e.subject, e.role, e.outcome, e.status]);
}

/** Edits the first role grant's line in the trail (the person it names), as someone covering tracks would. */
async function tamper(server: TestServer, url: string | undefined): Promise<void> {
  if (url === undefined) {
    const file = path.join(server.dataDir, 'audit.jsonl');
    writeFileSync(file, readFileSync(file, 'utf8').replace('user:alice@example.com', 'user:eve@example.com'));
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(
    `UPDATE attractor.audit_log SET line = replace(line, 'user:alice@example.com', 'user:eve@example.com')
      WHERE seq = (SELECT min(seq) FROM attractor.audit_log WHERE line LIKE '%"role-grant"%')`,
  );
  await client.end();
}

describe.each(STORES)('roles kept in the store, $name', (store) => {
  it('attractor role grants reach a signed-in person; a revoke is refused on their next request; all audited', async () => {
    const url = await store.url();
    const { server, where, asAlice } = await signedInServer(url);
    expect(await rolesOf(asAlice)).toEqual(['viewer']);
    expect((await asAlice('POST', '/pipelines', start)).status).toBe(403);

    expect(
      (await runCli(['role', 'grant', ...where, '--user', 'alice@example.com', '--role', 'operator'])).code,
    ).toBe(0);
    expect((await asAlice('POST', '/pipelines', start)).status).toBe(201);
    expect(
      (await runCli(['role', 'grant', ...where, '--group', 'platform', '--role', 'approver'])).code,
    ).toBe(0);
    expect(await rolesOf(asAlice)).toEqual(['approver', 'operator', 'viewer']);

    expect(
      (await runCli(['role', 'revoke', ...where, '--user', 'alice@example.com', '--role', 'operator'])).code,
    ).toBe(0);
    const refused = await asAlice('POST', '/pipelines', start);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(
      /needs the operator role; alice@example\.com has viewer, approver/,
    );
    // The access file's role stays: the store's revoke takes only what the store granted.
    expect(await rolesOf(asAlice)).toEqual(['approver', 'viewer']);

    const who = localIdentity();
    const location = url ? { dataDir: server.dataDir, store: url } : { dataDir: server.dataDir };
    expect(await roleEntries(location)).toEqual([
      [who, 'role-grant', 'user:alice@example.com', 'operator', 'ok', 0],
      [who, 'role-grant', 'group:platform', 'approver', 'ok', 0],
      [who, 'role-revoke', 'user:alice@example.com', 'operator', 'ok', 0],
    ]);
    const verify = await runCli(['audit', '--verify', ...where]);
    expect(verify.stdout).toMatch(/entries, chain intact/);
    expect(verify.code).toBe(0);
    const shown = await runCli(['audit', ...where]);
    expect(shown.stdout).toMatch(/role-revoke\s+-\s+user:alice@example\.com, role operator\s+ok 0/);

    await tamper(server, url);
    const tampered = await runCli(['audit', '--verify', ...where]);
    expect(tampered.code).not.toBe(0);
    expect(tampered.stderr).toMatch(/line \d+: edited/);
  }, 60_000);

  it("an admin grants and revokes over HTTP: audited as the admin's token, refusals answered and audited", async () => {
    const url = await store.url();
    const { server, where, asAlice } = await signedInServer(url);
    const admin = bearer(await createToken(where, 'root', 'admin'));
    const grant = { group: 'platform', role: 'operator' };
    const granted = await server.json('POST', '/roles/grant', grant, admin);
    expect(granted.status).toBe(201);
    expect(granted.body).toMatchObject({ grantee: { kind: 'group', id: 'platform' }, granted_by: 'root' });
    expect((await server.json('GET', '/roles', undefined, admin)).body).toMatchObject([
      { grantee: { kind: 'group', id: 'platform' }, role: 'operator' },
    ]);
    expect(await rolesOf(asAlice)).toEqual(['operator', 'viewer']);
    expect((await server.json('POST', '/roles/grant', grant, admin)).status).toBe(409);
    // Alice is no admin: she may not grant herself more.
    expect((await asAlice('POST', '/roles/grant', { user: 'alice@example.com', role: 'admin' })).status).toBe(
      403,
    );
    expect((await server.json('POST', '/roles/grant', { user: 'x', role: 'boss' }, admin)).status).toBe(400);

    expect((await server.json('POST', '/roles/revoke', grant, admin)).status).toBe(200);
    expect((await asAlice('POST', '/pipelines', start)).status).toBe(403);
    const again = await server.json('POST', '/roles/revoke', grant, admin);
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('ROLE_NOT_GRANTED');

    const location = url ? { dataDir: server.dataDir, store: url } : { dataDir: server.dataDir };
    expect(await roleEntries(location)).toEqual([
      ['root', 'role-grant', 'group:platform', 'operator', 'ok', 201],
      ['root', 'role-grant', 'group:platform', 'operator', 'refused', 409],
      ['alice@example.com', 'role-grant', undefined, undefined, 'refused', 403],
      ['root', 'role-grant', undefined, undefined, 'refused', 400],
      ['root', 'role-revoke', 'group:platform', 'operator', 'ok', 200],
      ['root', 'role-revoke', 'group:platform', 'operator', 'refused', 404],
    ]);
  }, 60_000);
});

const FOREIGN: { what: string; headers: Record<string, string>; status: number }[] = [
  { what: 'a form post', headers: { 'content-type': 'application/x-www-form-urlencoded' }, status: 415 },
  {
    what: 'another site',
    headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
    status: 403,
  },
];

describe('the role routes change state only as a JSON request from the server’s own pages', () => {
  it.each(FOREIGN)('refuses $what', async ({ headers, status }) => {
    const server = await testServer({ token: 'secret' });
    const response = await fetch(`${server.url}/roles/grant`, {
      method: 'POST',
      headers: { ...headers, authorization: 'Bearer secret' },
      body: JSON.stringify({ user: 'mallory@example.com', role: 'admin' }),
    });
    expect(response.status).toBe(status);
    expect((await server.json('GET', '/roles', undefined, bearer('secret'))).body).toEqual([]);
  });
});

describe('an email the provider has not verified', () => {
  it('grants nothing and names no one: mallory who set her address to alice’s is mallory, with no role', async () => {
    const provider = await oidcProvider({ mallory: [] }, { mallory: 'alice@example.com' });
    const access = path.join(tempDir(), 'access.yaml');
    writeFileSync(access, 'users:\n  alice@example.com: [admin]\n');
    const server = await testServer({ ...provider.serverOptions, access });
    provider.serve(server.url);
    const grant = ['role', 'grant', '--data-dir', server.dataDir, '--user', 'alice@example.com'];
    expect((await runCli([...grant, '--role', 'operator'])).code).toBe(0);

    const cookie = await signInWithFetch(server.url, 'mallory');
    const whoami = await server.json('GET', '/whoami', undefined, { cookie });
    expect(whoami.status).toBe(200);
    expect(whoami.body).toMatchObject({ name: 'mallory', kind: 'person', roles: [] });
    expect((await server.json('GET', '/roles', undefined, { cookie })).status).toBe(403);
    expect((await server.json('POST', '/pipelines', start, { cookie })).status).toBe(403);
  });
});
