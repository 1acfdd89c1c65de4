import path from 'node:path';
import { parseAge } from '../run/prune-runs.js';
import { newTokenText, TokenNameSchema, tokenHash, tokenStatus } from '../server/auth/api-token.js';
import { openTokenStore } from '../server/auth/open-token-store.js';
import { RoleSchema } from '../server/auth/role.js';
import type { TokenStore } from '../server/auth/token-store.js';
import { definedFields } from '../shared/defined-fields.js';
import { AttractorError } from '../shared/errors.js';
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
  await withStore(flags, ctx, (store) =>
    store.create({
      name: name.data,
      role,
      hash: tokenHash(text),
      created_at: now.toISOString(),
      ...definedFields({ expires_at: expiresAt }),
    }),
  );
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
  const revoked = await withStore(flags, ctx, (store) => store.revoke(name, new Date()));
  ctx.io.stdout(`revoked token "${revoked.name}" (${revoked.role}) at ${revoked.revoked_at}\n`);
  return EXIT_OK;
}

async function withStore<T>(
  flags: TokenStoreFlags,
  ctx: CliContext,
  use: (store: TokenStore) => Promise<T>,
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
  const store = await openTokenStore(
    flags.store !== undefined
      ? { dataDir: ctx.io.cwd, store: flags.store }
      : { dataDir: path.resolve(ctx.io.cwd, flags.dataDir ?? '') },
  );
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}
