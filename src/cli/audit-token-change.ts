import { openAuditLog } from '../server/audit/open-audit-log.js';
import type { Role } from '../server/auth/role.js';
import { definedFields } from '../shared/defined-fields.js';
import { AttractorError } from '../shared/errors.js';
import { localIdentity } from '../shared/identity.js';
import type { CliContext } from './cli-context.js';
import { EXIT_FAILURE, EXIT_OK } from './exit-codes.js';

/** A token change `attractor token` made (or the store refused), for the store's audit trail. */
export interface TokenChange {
  readonly action: 'token-create' | 'token-revoke';
  /** The token's name. */
  readonly subject: string;
  readonly role?: Role | undefined;
  /** The store's refusal (`TOKEN_EXISTS`, `TOKEN_NOT_FOUND`); none when the change was made. */
  readonly refusal?: string | undefined;
}

/**
 * Appends the change to the trail of the store the token is kept in (`audit.jsonl` beside
 * `tokens.json`, or the PostgreSQL audit table), as the OS user who ran the command. `status` is the
 * command's exit status. A change the trail cannot record is an error that says the change was made.
 */
export async function auditTokenChange(
  where: { dataDir: string; store?: string | undefined },
  change: TokenChange,
  ctx: CliContext,
): Promise<void> {
  const log = await openAuditLog(where);
  try {
    await log.append({
      who: localIdentity(ctx.io.env),
      action: change.action,
      subject: change.subject,
      ...definedFields({ role: change.role, error_code: change.refusal }),
      outcome: change.refusal === undefined ? 'ok' : 'refused',
      status: change.refusal === undefined ? EXIT_OK : EXIT_FAILURE,
    });
  } catch (error) {
    const done = change.refusal === undefined ? 'was made' : 'was refused';
    throw new AttractorError(
      'AUDIT_FAILED',
      `the ${change.action} of "${change.subject}" ${done}, but the audit trail (${log.where}) could not record it: ${(error as Error).message}`,
      { cause: error },
    );
  } finally {
    await log.close();
  }
}
