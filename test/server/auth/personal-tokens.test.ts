/**
 * Personal API tokens close a server: once one exists every request but the public paths needs a token,
 * a revoked or expired one is refused saying why, and the single `--token` still works as an admin.
 * On the file store and on PostgreSQL (ATTRACTOR_PG_TESTS=required makes the second run).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FileAuditLog } from '../../../src/server/audit/file-audit-log.js';
import { verifyAuditChain } from '../../../src/server/audit/verify-audit-chain.js';
import { tokenHash } from '../../../src/server/auth/api-token.js';
import { FileTokenStore } from '../../../src/server/auth/file-token-store.js';
import { localIdentity } from '../../../src/shared/identity.js';
import { runCli } from '../../cli/run-cli.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { tempDir } from '../../helpers/temp-dir.js';
import {
  closeServers,
  GATE_PIPELINE,
  LINEAR_PIPELINE,
  type TestServer,
  testServer,
} from '../server-fixtures.js';
import { bearer, createToken, type StoreArgs } from './token-fixtures.js';

afterEach(closeServers);

const withPostgres = PG_AVAILABLE || PG_REQUIRED;
const cluster = withPostgres ? postgresClusterForFile(120_000) : undefined;

interface Setup {
  server: TestServer;
  where: StoreArgs;
}

const STORES: { name: string; open: (options?: { token?: string }) => Promise<Setup> }[] = [
  {
    name: 'file store',
    async open(options = {}) {
      const server = await testServer(options);
      return { server, where: ['--data-dir', server.dataDir] };
    },
  },
  ...(withPostgres
    ? [
        {
          name: 'PostgreSQL',
          async open(options: { token?: string } = {}) {
            const url = await (
              cluster ?? { createDatabase: () => Promise.reject(new Error('no cluster')) }
            ).createDatabase('tokens');
            const server = await testServer({ ...options, store: url });
            return { server, where: ['--store', url] as StoreArgs };
          },
        },
      ]
    : []),
];

describe.each(STORES)('personal API tokens, $name', ({ open }) => {
  it('an open server closes once a token exists: 401 without one, the public paths stay open', async () => {
    const { server, where } = await open();
    expect((await server.json('GET', '/pipelines')).status).toBe(200);
    const token = await createToken(where, 'ci', 'operator');
    const refused = await server.json('GET', '/pipelines');
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toMatch(/needs a token/);
    expect((await server.json('GET', '/pipelines', undefined, bearer('attr_wrong'))).status).toBe(401);
    expect((await server.json('GET', '/pipelines', undefined, bearer(token))).status).toBe(200);
    expect((await server.json('GET', '/whoami', undefined, bearer(token))).body).toEqual({
      name: 'ci',
      kind: 'token',
      roles: ['operator'],
    });
    for (const open of ['/healthz', '/']) expect((await fetch(`${server.url}${open}`)).status).toBe(200);
  });

  it('a revoked token is refused with 401 saying it was revoked; its name can be given again', async () => {
    const { server, where } = await open();
    const token = await createToken(where, 'deploy', 'viewer');
    expect((await server.json('GET', '/pipelines', undefined, bearer(token))).status).toBe(200);
    const revoked = await runCli(['token', 'revoke', 'deploy', ...where]);
    expect(revoked.code).toBe(0);
    const refused = await server.json('GET', '/pipelines', undefined, bearer(token));
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toMatch(/^the token "deploy" was revoked at \d{4}-/);
    const again = await createToken(where, 'deploy', 'viewer');
    expect((await server.json('GET', '/pipelines', undefined, bearer(again))).status).toBe(200);
  });

  it('the single --token keeps working, as an admin, beside personal tokens', async () => {
    const { server, where } = await open({ token: 'server-secret' });
    await createToken(where, 'ci', 'viewer');
    const asAdmin = await server.json('GET', '/tokens', undefined, bearer('server-secret'));
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body).toEqual([expect.objectContaining({ name: 'ci', role: 'viewer' })]);
    expect(JSON.stringify(asAdmin.body)).not.toMatch(/hash/);
    expect((await server.json('GET', '/whoami', undefined, bearer('server-secret'))).body.name).toBe('token');
  });
});

describe('personal API tokens: expiry', () => {
  it('a token past its expiry is refused with 401 saying when it expired', async () => {
    const dataDir = tempDir();
    const store = new FileTokenStore(dataDir);
    await store.create({
      name: 'old',
      role: 'viewer',
      hash: tokenHash('attr_expired-one'),
      created_at: '2026-01-01T00:00:00.000Z',
      expires_at: '2026-02-01T00:00:00.000Z',
    });
    const server = await testServer({ dataDir });
    const refused = await server.json('GET', '/pipelines', undefined, bearer('attr_expired-one'));
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toBe('the token "old" expired at 2026-02-01T00:00:00.000Z.');
  });

  it('--expires 1m makes a token that lets its holder in now and expires a minute later', async () => {
    const server = await testServer();
    const token = await createToken(['--data-dir', server.dataDir], 'short', 'viewer', ['--expires', '1m']);
    expect((await server.json('GET', '/pipelines', undefined, bearer(token))).status).toBe(200);
    const [stored] = await new FileTokenStore(server.dataDir).list();
    const lifetime = Date.parse(stored?.expires_at ?? '') - Date.parse(stored?.created_at ?? '');
    expect(lifetime).toBe(60_000);
  });
});

describe('personal API tokens: who the audit trail names', () => {
  it('a request with a personal token is audited as the token name', async () => {
    const server = await testServer();
    const token = await createToken(['--data-dir', server.dataDir], 'ci', 'operator');
    const started = await server.json(
      'POST',
      '/pipelines',
      { dot_source: LINEAR_PIPELINE, dry_run: true },
      bearer(token),
    );
    expect(started.status).toBe(201);
    const lines = await new FileAuditLog(server.dataDir).lines();
    const verdict = verifyAuditChain(lines);
    expect(verdict.ok).toBe(true);
    // The token's creation, by whoever ran `attractor token`, is on the same trail.
    expect(verdict.entries.map((e) => [e.who, e.action, e.outcome])).toEqual([
      [localIdentity(), 'token-create', 'ok'],
      ['ci', 'start', 'ok'],
    ]);
  });
});

describe('a run event stream outlives nobody’s access', () => {
  it('a stream opened with a token ends within a heartbeat of its revoke; reconnecting is refused', async () => {
    const server = await testServer({ token: 'the-admin-token', heartbeatMs: 50 });
    const where: StoreArgs = ['--data-dir', server.dataDir];
    const admin = bearer('the-admin-token');
    const started = await server.json(
      'POST',
      '/pipelines',
      { dot_source: GATE_PIPELINE, dry_run: true },
      admin,
    );
    expect(started.status).toBe(201);
    const token = await createToken(where, 'watcher', 'viewer');
    const stream = await fetch(`${server.url}/pipelines/${started.body.id}/events`, {
      headers: bearer(token),
    });
    expect(stream.status).toBe(200);
    // The run waits at its gate: the stream stays open until something ends it.
    const reading = stream.text();
    expect((await runCli(['token', 'revoke', 'watcher', ...where])).code).toBe(0);
    const text = await reading;
    expect(text).not.toContain('"kind":"done"');
    const again = await fetch(`${server.url}/pipelines/${started.body.id}/events`, {
      headers: bearer(token),
    });
    expect(again.status).toBe(401);
    await again.body?.cancel();
  });
});
