import { FileRoleStore } from './file-role-store.js';
import { PostgresRoleStore } from './postgres-role-store.js';
import type { RoleStore } from './role-store.js';

/** The role store that goes with a server's run store: PostgreSQL with `--store`, else the data dir's file. */
export async function openRoleStore(where: {
  dataDir: string;
  store?: string | undefined;
}): Promise<RoleStore> {
  return where.store ? PostgresRoleStore.open(where.store) : new FileRoleStore(where.dataDir);
}
