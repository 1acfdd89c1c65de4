/** Both session stores, and `Sessions` over each: what is kept, found, removed and pruned. */
import { statSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../../src/server/auth/file-session-store.js';
import { PostgresSessionStore } from '../../../src/server/auth/postgres-session-store.js';
import type { SessionStore } from '../../../src/server/auth/session-store.js';
import { SESSION_COOKIE, Sessions } from '../../../src/server/auth/sessions.js';
import type { StoredSession } from '../../../src/server/auth/stored-session.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { tempDir } from '../../helpers/temp-dir.js';

const withPostgres = PG_AVAILABLE || PG_REQUIRED;
const cluster = withPostgres ? postgresClusterForFile() : undefined;

const opened: SessionStore[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

/** Two handles on one store: two servers sharing it, or one server before and after a restart. */
const STORES: { name: string; open: () => Promise<[SessionStore, SessionStore]> }[] = [
  {
    name: 'file',
    open: async () => {
      const dir = tempDir();
      return [new FileSessionStore(dir), new FileSessionStore(dir)];
    },
  },
  ...(withPostgres
    ? [
        {
          name: 'PostgreSQL',
          open: async (): Promise<[SessionStore, SessionStore]> => {
            const url = (await cluster?.createDatabase('session_store')) ?? '';
            return [await PostgresSessionStore.open(url), await PostgresSessionStore.open(url)];
          },
        },
      ]
    : []),
];

async function openPair(open: () => Promise<[SessionStore, SessionStore]>) {
  const pair = await open();
  opened.push(...pair);
  return pair;
}

const at = (iso: string) => new Date(iso);
const session = (n: number, expires: string): StoredSession => ({
  hash: String(n).repeat(64).slice(0, 64),
  person: { subject: `sub-${n}`, email: `p${n}@example.com`, groups: ['platform'] },
  created_at: '2026-01-01T00:00:00.000Z',
  expires_at: expires,
});
const withCookie = (id: string) =>
  new Request('http://127.0.0.1/whoami', { headers: { cookie: `a=b; ${SESSION_COOKIE}=${id}` } });

describe.each(STORES)('$name session store', ({ open }) => {
  it('one handle adds, the other finds; a remove is seen by both; removing one gone is not an error', async () => {
    const [one, other] = await openPair(open);
    expect(await other.byHash(session(1, '2026-01-02T00:00:00.000Z').hash)).toBeUndefined();
    await one.add(session(1, '2026-01-02T00:00:00.000Z'), at('2026-01-01T00:00:00.000Z'));
    expect(await other.byHash(session(1, '').hash)).toEqual(session(1, '2026-01-02T00:00:00.000Z'));
    await other.remove(session(1, '').hash);
    expect(await one.byHash(session(1, '').hash)).toBeUndefined();
    await one.remove(session(1, '').hash);
  });

  it('an add drops the sessions expired at its moment, and only those', async () => {
    const [store] = await openPair(open);
    const now = at('2026-01-01T12:00:00.000Z');
    await store.add(session(1, '2026-01-01T11:00:00.000Z'), at('2026-01-01T00:00:00.000Z'));
    await store.add(session(2, '2026-01-01T12:00:00.000Z'), at('2026-01-01T00:00:00.000Z'));
    await store.add(session(3, '2026-01-01T13:00:00.000Z'), at('2026-01-01T00:00:00.000Z'));
    await store.add(session(4, '2026-01-02T00:00:00.000Z'), now);
    const kept = await Promise.all(
      [1, 2, 3, 4].map(async (n) => (await store.byHash(session(n, '').hash)) !== undefined),
    );
    expect(kept).toEqual([false, false, true, true]);
  });

  it('Sessions: no cookie, a live one, an unknown one, an ended one (then removed)', async () => {
    const [store, other] = await openPair(open);
    const sessions = new Sessions(store);
    const opened = at('2026-01-01T00:00:00.000Z');
    const id = await sessions.open({ subject: 'sub-1', email: undefined, groups: ['ops'] }, opened);
    const lookup = (request: Request, now: string) => new Sessions(other).lookup(request, at(now));

    expect(await lookup(new Request('http://127.0.0.1/'), '2026-01-01T01:00:00.000Z')).toEqual({
      kind: 'none',
    });
    expect(await lookup(withCookie(id), '2026-01-01T11:59:59.999Z')).toEqual({
      kind: 'person',
      principal: { name: 'sub-1', kind: 'person', roles: [], person: { subject: 'sub-1', groups: ['ops'] } },
    });
    expect(await lookup(withCookie(`${id}x`), '2026-01-01T01:00:00.000Z')).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/not known here/),
    });
    expect(await lookup(withCookie(id), '2026-01-01T12:00:00.000Z')).toEqual({
      kind: 'refused',
      reason: 'the session ended at 2026-01-01T12:00:00.000Z: sign in again at /signin.',
    });
    expect(await lookup(withCookie(id), '2026-01-01T01:00:00.000Z')).toMatchObject({
      reason: expect.stringMatching(/not known here/),
    });
  });
});

describe('the file store on disk', () => {
  it('is 0600, and a file that is not one attractor wrote is BAD_SESSIONS_FILE naming it', async () => {
    const store = new FileSessionStore(tempDir());
    await store.add(session(1, '2026-01-02T00:00:00.000Z'), at('2026-01-01T00:00:00.000Z'));
    expect(statSync(store.file).mode & 0o777).toBe(0o600);
    writeFileSync(store.file, JSON.stringify({ version: 1, sessions: [{ ...session(2, 'tomorrow') }] }));
    await expect(store.byHash(session(1, '').hash)).rejects.toMatchObject({
      code: 'BAD_SESSIONS_FILE',
      message: expect.stringContaining(store.file),
    });
  });
});
