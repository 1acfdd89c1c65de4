/**
 * Sessions kept in the server's store, on both stores: a person signed in through a real OpenID
 * provider stays signed in across a restart; servers sharing a database share sign-in and sign-out; an
 * expired session is refused with its end and pruned; the store never holds the cookie's value.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { tokenHash } from '../../../src/server/auth/api-token.js';
import type { RunningServer } from '../../../src/server/start-server.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { startedServers } from '../started-servers.js';
import { oidcProvider, signInWithFetch } from './oidc-fixtures.js';

const withPostgres = PG_AVAILABLE || PG_REQUIRED;
const cluster = withPostgres ? postgresClusterForFile(120_000) : undefined;

const { serve, stop } = startedServers();

async function whoami(server: RunningServer, cookie: string) {
  const response = await fetch(`${server.url}/whoami`, { headers: { cookie } });
  return { status: response.status, body: await response.json() };
}

async function signOut(server: RunningServer, cookie: string): Promise<number> {
  const response = await fetch(`${server.url}/signout`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
  });
  await response.body?.cancel();
  return response.status;
}

const sessionId = (cookie: string): string => cookie.slice('__Host-attractor_session='.length);

/** Each store, as the test reads and changes it behind the server's back. */
interface Store {
  name: string;
  open(): Promise<{ options: { dataDir: string; store?: string }; raw: RawStore }>;
}
interface RawStore {
  /** Every place the store keeps its sessions in, as bytes. */
  places(): Promise<Buffer[]>;
  /** Moves every session's end into the past, as twelve hours would. */
  expireAll(): Promise<void>;
  hashes(): Promise<string[]>;
}

const fileRaw = (dataDir: string): RawStore => {
  const file = path.join(dataDir, 'sessions.json');
  const read = () => JSON.parse(readFileSync(file, 'utf8')) as { sessions: { hash: string }[] };
  return {
    places: async () => [readFileSync(file)],
    async expireAll() {
      const past = new Date(Date.now() - 60_000).toISOString();
      const sessions = read().sessions.map((s) => ({ ...s, expires_at: past }));
      writeFileSync(file, JSON.stringify({ version: 1, sessions }));
    },
    hashes: async () => read().sessions.map((s) => s.hash),
  };
};

const postgresRaw = (url: string): RawStore => {
  const query = async <R extends pg.QueryResultRow>(sql: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<R>(sql)).rows;
    } finally {
      await client.end();
    }
  };
  return {
    async places() {
      const rows = await query<{ row: string }>('SELECT s::text AS row FROM attractor.sessions s');
      // The table's file on disk, once PostgreSQL has written its pages there.
      await query('CHECKPOINT');
      const [heap] = await query<{ bytes: Buffer }>(
        `SELECT pg_read_binary_file(pg_relation_filepath('attractor.sessions')) AS bytes`,
      );
      return [Buffer.from(rows.map((r) => r.row).join('\n')), heap?.bytes ?? Buffer.alloc(0)];
    },
    async expireAll() {
      await query(`UPDATE attractor.sessions SET expires_at = now() - interval '1 minute'`);
    },
    hashes: async () =>
      (await query<{ hash: string }>('SELECT hash FROM attractor.sessions')).map((r) => r.hash),
  };
};

const STORES: Store[] = [
  {
    name: 'file store',
    open: async () => {
      const dataDir = tempDir();
      return { options: { dataDir }, raw: fileRaw(dataDir) };
    },
  },
  ...(withPostgres
    ? [
        {
          name: 'PostgreSQL',
          open: async () => {
            const store = (await cluster?.createDatabase('sessions')) ?? '';
            return { options: { dataDir: tempDir(), store }, raw: postgresRaw(store) };
          },
        },
      ]
    : []),
];

describe.each(STORES)('sessions kept in the $name', (store) => {
  it('a signed-in person stays signed in across a restart; the store holds only the hash of their cookie', async () => {
    const { options, raw } = await store.open();
    const provider = await oidcProvider({ alice: ['platform'] });
    const first = await serve({ ...provider.serverOptions, ...options });
    provider.serve(first.url);
    const cookie = await signInWithFetch(first.url, 'alice');
    expect((await whoami(first, cookie)).body.name).toBe('alice@example.com');

    for (const bytes of await raw.places()) {
      expect(bytes.includes(sessionId(cookie))).toBe(false);
      expect(bytes.includes(tokenHash(sessionId(cookie)))).toBe(true);
    }

    await stop(first);
    const restarted = await serve({ ...provider.serverOptions, ...options });
    expect(await whoami(restarted, cookie)).toEqual({
      status: 200,
      body: { name: 'alice@example.com', kind: 'person', roles: [] },
    });
    expect(await signOut(restarted, cookie)).toBe(200);
    expect(await raw.hashes()).toEqual([]);
    expect((await whoami(restarted, cookie)).status).toBe(401);
  });

  it('an expired session is refused saying it ended, and removed; sign-in prunes the other expired ones', async () => {
    const { options, raw } = await store.open();
    const provider = await oidcProvider({ alice: [], bob: [] });
    const server = await serve({ ...provider.serverOptions, ...options });
    provider.serve(server.url);
    const alice = await signInWithFetch(server.url, 'alice');
    const bob = await signInWithFetch(server.url, 'bob');
    await raw.expireAll();

    const refused = await whoami(server, alice);
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toMatch(
      /^the session ended at \d{4}-\d\d-\d\dT[\d:.]+Z: sign in again at \/signin\.$/,
    );
    expect(refused.body.error.sign_in).toBe('/signin');
    expect(await raw.hashes()).toEqual([tokenHash(sessionId(bob))]);
    expect((await whoami(server, alice)).body.error.message).toMatch(/the session is not known here/);

    const aliceAgain = await signInWithFetch(server.url, 'alice');
    expect(await raw.hashes()).toEqual([tokenHash(sessionId(aliceAgain))]);
    expect((await whoami(server, aliceAgain)).status).toBe(200);
    expect((await whoami(server, bob)).status).toBe(401);
  });
});

describe.runIf(withPostgres)('two servers on one database', () => {
  it('signed in at one, recognised at the other; signed out at one, refused at the other', async () => {
    const store = (await cluster?.createDatabase('shared_sessions')) ?? '';
    const provider = await oidcProvider({ alice: ['platform'] });
    const one = await serve({ ...provider.serverOptions, dataDir: tempDir(), store });
    const other = await serve({ ...provider.serverOptions, dataDir: tempDir(), store });
    provider.serve(one.url);
    const cookie = await signInWithFetch(one.url, 'alice');

    expect((await whoami(other, cookie)).body.name).toBe('alice@example.com');
    expect(await signOut(one, cookie)).toBe(200);
    const refused = await whoami(other, cookie);
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toMatch(/the session is not known here \(signed out, or ended\)/);
  });
});
