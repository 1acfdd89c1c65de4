import { FileTokenStore } from './file-token-store.js';
import { PostgresTokenStore } from './postgres-token-store.js';
import type { TokenStore } from './token-store.js';

/** The token store that goes with a server's run store: PostgreSQL with `--store`, else the data dir's file. */
export async function openTokenStore(where: {
  dataDir: string;
  store?: string | undefined;
}): Promise<TokenStore> {
  return where.store ? PostgresTokenStore.open(where.store) : new FileTokenStore(where.dataDir);
}
