import path from 'node:path';
import { parseAge } from '../run/prune-runs.js';
import { newTokenText, TokenNameSchema, tokenHash, tokenStatus } from '../server/auth/api-token.js';
import { openTokenStore } from '../server/auth/open-token-store.js';
import { type Role, RoleSchema } from '../server/auth/role.js';
import type { TokenStore } from '../server/auth/token-store.js';
import { definedFields } from '../shared/defined-fields.js';
import { AttractorError } from '../shared/errors.js';
import { auditTokenChange, type TokenChange } from './audit-token-change.js';
import type { CliContext } from './cli-context.js';
import type { TokenCreateFlags, TokenStoreFlags } from './commands/token.js';
import { EXIT_OK } from './exit-codes.js';

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
  const lines = [['NAME', 'ROLE', 'STATUS', 'CREATED', 'EXPIRES']].concat(
    rows.map((r) => [r.name, r.role, r.status, r.created_at, r.expires_at ?? 'never']),
  );
  const widths = lines[0]?.map((_, i) => Math.max(...lines.map((l) => (l[i] ?? '').length))) ?? [];
  for (const line of lines)
    ctx.io.stdout(
      `${line
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd()}\n`,
    );
  return EXIT_OK;
}

/** `attractor token revoke NAME`: refused with 401 from the next request on. */
export async function runTokenRevoke(name: string, flags: TokenStoreFlags, ctx: CliContext): Promise<number> {
  const change = { action: 'token-revoke', subject: name } as const;
  const revoked = await changeTokens(flags, ctx, change, (store) => store.revoke(name, new Date()));
  ctx.io.stdout(`revoked token "${revoked.name}" (${revoked.role}) at ${revoked.revoked_at}\n`);
  return EXIT_OK;
}

/**
 * A token change through `use`, appended to the store's audit trail once made (with the role `use`
 * resolves to) or once the store refused it (with the refusal's code).
 */
/** A server's store, as `openTokenStore` and `openAuditLog` take it. */
type StoreLocation = { dataDir: string; store?: string | undefined };

async function changeTokens<T extends { role: Role }>(
  flags: TokenStoreFlags,
  ctx: CliContext,
  change: TokenChange,
  use: (store: TokenStore) => Promise<T>,
): Promise<T> {
  return withStore(flags, ctx, async (store, where) => {
    let result: T;
    try {
      result = await use(store);
    } catch (error) {
      if (error instanceof AttractorError)
        await auditTokenChange(where, { ...change, refusal: error.code }, ctx);
      throw error;
    }
    await auditTokenChange(where, { ...change, role: result.role }, ctx);
    return result;
  });
}

async function withStore<T>(
  flags: TokenStoreFlags,
  ctx: CliContext,
  use: (store: TokenStore, where: StoreLocation) => Promise<T>,
): Promise<T> {
  if ((flags.dataDir === undefined) === (flags.store === undefined)) {
    throw new AttractorError(
      'BAD_FLAG',
      "name the server's store: --data-dir DIR (its file store) or --store postgres://… (one of them).",
    );
  }
  if (flags.store !== undefined && !/^postgres(ql)?:\/\//.test(flags.store)) {
    throw new AttractorError(
      'BAD_FLAG',
      `--store ${flags.store}: a store is a PostgreSQL URL: postgres://user@host:port/database.`,
    );
  }
  const where: StoreLocation =
    flags.store !== undefined
      ? { dataDir: ctx.io.cwd, store: flags.store }
      : { dataDir: path.resolve(ctx.io.cwd, flags.dataDir ?? '') };
  const store = await openTokenStore(where);
  try {
    return await use(store, where);
  } finally {
    await store.close();
  }
}
