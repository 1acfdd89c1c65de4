import { parseAge } from '../run/prune-runs.js';
import { newTokenText, TokenNameSchema, tokenHash, tokenStatus } from '../server/auth/api-token.js';
import { openTokenStore } from '../server/auth/open-token-store.js';
import { type Role, RoleSchema } from '../server/auth/role.js';
import type { TokenStore } from '../server/auth/token-store.js';
import { definedFields } from '../shared/defined-fields.js';
import { AttractorError } from '../shared/errors.js';
import { auditedChange, type StoreChange } from './audit-store-change.js';
import type { CliContext } from './cli-context.js';
import type { TokenCreateFlags, TokenStoreFlags } from './commands/token.js';
import { EXIT_OK } from './exit-codes.js';
import { formatTable } from './format-table.js';
import { type StoreLocation, storeLocation } from './store-location.js';

/** `attractor token create`: the token's hash goes to the store, the token to stdout's last line. */
export async function runTokenCreate(flags: TokenCreateFlags, ctx: CliContext): Promise<number> {
  const name = TokenNameSchema.safeParse(flags.name);
  if (!name.success)
    throw new AttractorError('BAD_FLAG', `--name ${flags.name}: ${name.error.issues[0]?.message}.`);
  const role = RoleSchema.parse(flags.role);
  const now = new Date();
  const expiresMs = flags.expires === undefined ? undefined : parseAge(flags.expires);
  if (flags.expires !== undefined && expiresMs === undefined) {
    throw new AttractorError('BAD_FLAG', `--expires ${flags.expires}: not an age (e.g. 90d, 12h, 2w, 30m).`);
  }
  const text = newTokenText();
  const expiresAt = expiresMs === undefined ? undefined : new Date(now.getTime() + expiresMs).toISOString();
  const change = { action: 'token-create', subject: name.data, role } as const;
  await changeTokens(flags, ctx, change, async (store) => {
    await store.create({
      name: name.data,
      role,
      hash: tokenHash(text),
      created_at: now.toISOString(),
      ...definedFields({ expires_at: expiresAt }),
    });
    return change;
  });
  ctx.io.stdout(
    `created token "${name.data}" (${role}${expiresAt ? `, expires ${expiresAt}` : ', never expires'}); it is shown only now:\n${text}\n`,
  );
  return EXIT_OK;
}

/** `attractor token list`: name, role, dates and whether each still lets its holder in. */
export async function runTokenList(
  flags: TokenStoreFlags & { json?: boolean },
  ctx: CliContext,
): Promise<number> {
  const tokens = await withStore(flags, ctx, (store) => store.list());
  const now = new Date();
  const rows = tokens.map((token) => {
    const { hash: _hash, ...shown } = token;
    return { ...shown, status: tokenStatus(token, now) };
  });
  if (flags.json) {
    ctx.io.stdout(`${JSON.stringify(rows, null, 2)}\n`);
    return EXIT_OK;
  }
  const table = [['NAME', 'ROLE', 'STATUS', 'CREATED', 'EXPIRES']].concat(
    rows.map((r) => [r.name, r.role, r.status, r.created_at, r.expires_at ?? 'never']),
  );
  ctx.io.stdout(formatTable(table));
  return EXIT_OK;
}

/** `attractor token revoke NAME`: refused with 401 from the next request on. */
export async function runTokenRevoke(name: string, flags: TokenStoreFlags, ctx: CliContext): Promise<number> {
  const change = { action: 'token-revoke', subject: name } as const;
  const revoked = await changeTokens(flags, ctx, change, (store) => store.revoke(name, new Date()));
  ctx.io.stdout(`revoked token "${revoked.name}" (${revoked.role}) at ${revoked.revoked_at}\n`);
  return EXIT_OK;
}

/** A token change in the store the flags name, audited whether it was made or refused. */
async function changeTokens<T extends { role: Role }>(
  flags: TokenStoreFlags,
  ctx: CliContext,
  change: StoreChange,
  use: (store: TokenStore) => Promise<T>,
): Promise<T> {
  return withStore(flags, ctx, (store, where) => auditedChange(where, change, ctx, () => use(store)));
}

async function withStore<T>(
  flags: TokenStoreFlags,
  ctx: CliContext,
  use: (store: TokenStore, where: StoreLocation) => Promise<T>,
): Promise<T> {
  const where = storeLocation(flags, ctx.io.cwd);
  const store = await openTokenStore(where);
  try {
    return await use(store, where);
  } finally {
    await store.close();
  }
}
