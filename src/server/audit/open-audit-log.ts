import type { AuditLog } from './audit-log.js';
import { FileAuditLog } from './file-audit-log.js';
import { PostgresAuditLog } from './postgres-audit-log.js';

/** The trail that goes with a server's runs: PostgreSQL with `--store`, else the data directory's file. */
export async function openAuditLog(where: {
  dataDir: string;
  store?: string | undefined;
}): Promise<AuditLog> {
  return where.store ? PostgresAuditLog.open(where.store) : new FileAuditLog(where.dataDir);
}
