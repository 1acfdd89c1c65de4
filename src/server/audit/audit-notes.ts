import type { AuditEvent } from './audit-entry.js';

/**
 * What only a route's handler knows and its answer does not say: a fork's node, why a sign-in failed,
 * whom a role change names and which role.
 */
export type AuditNote = Partial<Pick<AuditEvent, 'node' | 'error_code' | 'subject' | 'role'>>;

const notes = new WeakMap<Request, AuditNote>();

/** Kept for the audit of this request (the raw `Request` is the key Hono passes on). */
export function noteForAudit(request: Request, note: AuditNote): void {
  notes.set(request, { ...notes.get(request), ...note });
}

/** What the handler noted; nothing when it did not run (a guard refused the request first). */
export function auditNote(request: Request): AuditNote {
  return notes.get(request) ?? {};
}
