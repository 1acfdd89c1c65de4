import path from 'node:path';
import { AttractorError } from '../shared/errors.js';
import type { StoreFlags } from './commands/store-options.js';

/** A server's store, as `openTokenStore`, `openRoleStore` and `openAuditLog` take it. */
export type StoreLocation = { dataDir: string; store?: string | undefined };

/** The store the flags name: exactly one of `--data-dir` (resolved from `cwd`) and a PostgreSQL `--store`. */
export function storeLocation(flags: StoreFlags, cwd: string): StoreLocation {
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
  return flags.store !== undefined
    ? { dataDir: cwd, store: flags.store }
    : { dataDir: path.resolve(cwd, flags.dataDir ?? '') };
}
