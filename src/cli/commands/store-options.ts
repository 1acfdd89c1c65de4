import type { Command } from 'commander';

/** Where a server keeps its data, as `attractor token`, `role` and `audit` name it. */
export interface StoreFlags {
  dataDir?: string;
  store?: string;
}

/** `--data-dir DIR` or `--store URL` (exactly one: checked by `storeLocation` when the action runs). */
export const storeOptions = (command: Command): Command =>
  command
    .option('--data-dir <dir>', "the server's data directory (its file store)")
    .option('--store <url>', "the server's PostgreSQL store (postgres://user@host:port/db)");
