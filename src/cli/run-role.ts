import { openRoleStore } from '../server/auth/open-role-store.js';
import { type Role, RoleSchema } from '../server/auth/role.js';
import {
  type Grantee,
  GranteeIdSchema,
  granteeLabel,
  type RoleGrant,
  sameGrantee,
} from '../server/auth/role-grant.js';
import type { RoleStore } from '../server/auth/role-store.js';
import { roleNotGranted } from '../server/auth/role-store-errors.js';
import { AttractorError } from '../shared/errors.js';
import { localIdentity } from '../shared/identity.js';
import { auditedChange, auditStoreChange } from './audit-store-change.js';
import type { CliContext } from './cli-context.js';
import type { RoleFlags } from './commands/role.js';
import { EXIT_OK } from './exit-codes.js';
import { formatTable } from './format-table.js';
import { type StoreLocation, storeLocation } from './store-location.js';

/** `attractor role grant`: the grantee holds the role from their next request on. */
export async function runRoleGrant(flags: RoleFlags, ctx: CliContext): Promise<number> {
  const grantee = requiredGrantee(flags);
  const role = RoleSchema.parse(flags.role);
  const grant = {
    grantee,
    role,
    granted_at: new Date().toISOString(),
    granted_by: localIdentity(ctx.io.env),
  };
  const change = { action: 'role-grant', subject: granteeLabel(grantee), role } as const;
  await withRoles(flags, ctx, (store, where) =>
    auditedChange(where, change, ctx, async () => {
      await store.grant(grant);
      return grant;
    }),
  );
  ctx.io.stdout(`granted ${role} to ${granteeLabel(grantee)}; it holds from their next request\n`);
  return EXIT_OK;
}

/**
 * `attractor role revoke`: the role named, or without `--role` every role the store grants the grantee,
 * each audited; gone from their next request (a role `--access FILE` grants stays).
 */
export async function runRoleRevoke(flags: RoleFlags, ctx: CliContext): Promise<number> {
  const grantee = requiredGrantee(flags);
  const subject = granteeLabel(grantee);
  const named = flags.role === undefined ? undefined : RoleSchema.parse(flags.role);
  const revoked = await withRoles(flags, ctx, async (store, where) => {
    const roles =
      named !== undefined
        ? [named]
        : (await store.list()).filter((g) => shown(g, grantee, undefined)).map((g) => g.role);
    if (roles.length === 0) {
      const refusal = roleNotGranted(grantee);
      await auditStoreChange(where, { action: 'role-revoke', subject, refusal: refusal.code }, ctx);
      throw refusal;
    }
    const done: RoleGrant[] = [];
    for (const role of roles) {
      const change = { action: 'role-revoke', subject, role } as const;
      done.push(await auditedChange(where, change, ctx, () => store.revoke(grantee, role)));
    }
    return done;
  });
  for (const { role } of revoked)
    ctx.io.stdout(`revoked ${role} from ${subject}; it is gone from their next request\n`);
  return EXIT_OK;
}

/** `attractor role list`: every grant the store keeps, or only those of a grantee or a role. */
export async function runRoleList(flags: RoleFlags & { json?: boolean }, ctx: CliContext): Promise<number> {
  const grantee = flagGrantee(flags);
  const role = flags.role === undefined ? undefined : RoleSchema.parse(flags.role);
  const grants = (await withRoles(flags, ctx, (store) => store.list())).filter((g) =>
    shown(g, grantee, role),
  );
  if (flags.json) {
    ctx.io.stdout(`${JSON.stringify(grants, null, 2)}\n`);
    return EXIT_OK;
  }
  const rows = grants.map((g) => [g.grantee.kind, g.grantee.id, g.role, g.granted_at, g.granted_by]);
  ctx.io.stdout(formatTable([['KIND', 'ID', 'ROLE', 'GRANTED', 'BY'], ...rows]));
  return EXIT_OK;
}

const shown = (grant: RoleGrant, grantee: Grantee | undefined, role: Role | undefined): boolean =>
  (grantee === undefined || sameGrantee(grant.grantee, grantee)) &&
  (role === undefined || grant.role === role);

/** `--user ID` or `--group NAME`, or neither; both is a mistake. */
function flagGrantee(flags: RoleFlags): Grantee | undefined {
  if (flags.user !== undefined && flags.group !== undefined)
    throw new AttractorError('BAD_FLAG', 'name one grantee: --user ID or --group NAME, not both.');
  if (flags.user !== undefined) return { kind: 'user', id: checkedId('--user', flags.user) };
  if (flags.group !== undefined) return { kind: 'group', id: checkedId('--group', flags.group) };
  return undefined;
}

function requiredGrantee(flags: RoleFlags): Grantee {
  const grantee = flagGrantee(flags);
  if (grantee) return grantee;
  throw new AttractorError(
    'BAD_FLAG',
    'name whom the role is for: --user ID (an email or subject) or --group NAME (one of the groups claim).',
  );
}

function checkedId(flag: string, id: string): string {
  const parsed = GranteeIdSchema.safeParse(id);
  if (parsed.success) return parsed.data;
  throw new AttractorError('BAD_FLAG', `${flag} ${JSON.stringify(id)}: ${parsed.error.issues[0]?.message}.`);
}

async function withRoles<T>(
  flags: RoleFlags,
  ctx: CliContext,
  use: (store: RoleStore, where: StoreLocation) => Promise<T>,
): Promise<T> {
  const where = storeLocation(flags, ctx.io.cwd);
  const store = await openRoleStore(where);
  try {
    return await use(store, where);
  } finally {
    await store.close();
  }
}
