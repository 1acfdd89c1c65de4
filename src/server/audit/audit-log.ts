import type { AuditEvent } from './audit-entry.js';

/**
 * The append-only audit trail of a server's data (a data directory or a PostgreSQL store): the
 * server's state-changing routes append through `auditRequests`; `attractor token` calls `append`.
 */
export interface AuditLog {
  /** Adds `event` as the next link of the chain; resolves once it is durable. */
  append(event: AuditEvent): Promise<void>;
  /** Every line as stored, oldest first, for `verifyAuditChain`. */
  lines(): Promise<string[]>;
  /** Where the trail is kept, for messages (`…/audit.jsonl`, `PostgreSQL attractor.audit_log`). */
  readonly where: string;
  close(): Promise<void>;
}
