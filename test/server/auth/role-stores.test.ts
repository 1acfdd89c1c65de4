/** Both role stores against one table of cases: what a person holds, and the refusals. */
import { afterEach, describe, expect, it } from 'vitest';
import { FileRoleStore } from '../../../src/server/auth/file-role-store.js';
import { PostgresRoleStore } from '../../../src/server/auth/postgres-role-store.js';
import type { Role } from '../../../src/server/auth/role.js';
import type { Grantee } from '../../../src/server/auth/role-grant.js';
import type { RoleStore } from '../../../src/server/auth/role-store.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { tempDir } from '../../helpers/temp-dir.js';

const withPostgres = PG_AVAILABLE || PG_REQUIRED;
const cluster = withPostgres ? postgresClusterForFile() : undefined;

const opened: RoleStore[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

const STORES: { name: string; open: () => Promise<RoleStore> }[] = [
  { name: 'file', open: async () => new FileRoleStore(tempDir()) },
  ...(withPostgres
    ? [
        {
          name: 'PostgreSQL',
          open: async () => PostgresRoleStore.open((await cluster?.createDatabase('role_store')) ?? ''),
        },
      ]
    : []),
];

const grant = (grantee: Grantee, role: Role) => ({
  grantee,
  role,
  granted_at: new Date().toISOString(),
  granted_by: 'root',
});
const alice = { subject: 'sub-1', email: 'alice@example.com', groups: ['platform', 'oncall'] };

describe.each(STORES)('$name role store', ({ open }) => {
  it.each([
    { what: 'nothing granted', grants: [], holds: [] },
    {
      what: 'by email',
      grants: [grant({ kind: 'user', id: 'alice@example.com' }, 'approver')],
      holds: ['approver'],
    },
    { what: 'by subject', grants: [grant({ kind: 'user', id: 'sub-1' }, 'viewer')], holds: ['viewer'] },
    {
      what: 'by two groups and the email, each role once',
      grants: [
        grant({ kind: 'group', id: 'platform' }, 'operator'),
        grant({ kind: 'group', id: 'oncall' }, 'operator'),
        grant({ kind: 'user', id: 'alice@example.com' }, 'admin'),
      ],
      holds: ['admin', 'operator'],
    },
    {
      what: "another person's, or a group she is not in, or a user named like her group",
      grants: [
        grant({ kind: 'user', id: 'bob@example.com' }, 'admin'),
        grant({ kind: 'group', id: 'finance' }, 'admin'),
        grant({ kind: 'user', id: 'platform' }, 'admin'),
        grant({ kind: 'group', id: 'alice@example.com' }, 'admin'),
      ],
      holds: [],
    },
  ])('$what', async ({ grants, holds }) => {
    const store = await open();
    opened.push(store);
    for (const g of grants) await store.grant(g);
    expect((await store.rolesOf(alice)).sort()).toEqual(holds);
    expect(await store.list()).toHaveLength(grants.length);
  });

  it('refuses a second grant of a held role and a revoke of one not granted; a revoke takes only that role', async () => {
    const store = await open();
    opened.push(store);
    const platform: Grantee = { kind: 'group', id: 'platform' };
    await store.grant(grant(platform, 'operator'));
    await store.grant(grant(platform, 'approver'));
    await expect(store.grant(grant(platform, 'operator'))).rejects.toMatchObject({
      code: 'ROLE_ALREADY_GRANTED',
    });
    await expect(store.revoke(platform, 'admin')).rejects.toMatchObject({ code: 'ROLE_NOT_GRANTED' });
    expect(await store.revoke(platform, 'operator')).toMatchObject({ grantee: platform, role: 'operator' });
    expect(await store.rolesOf(alice)).toEqual(['approver']);
  });
});
