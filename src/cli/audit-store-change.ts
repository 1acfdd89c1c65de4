import { openAuditLog } from '../server/audit/open-audit-log.js';
import type { Role } from '../server/auth/role.js';
import { definedFields } from '../shared/defined-fields.js';
import { AttractorError } from '../shared/errors.js';
import { localIdentity } from '../shared/identity.js';
import type { CliContext } from './cli-context.js';
import { EXIT_FAILURE, EXIT_OK } from './exit-codes.js';
import type { StoreLocation } from './store-location.js';

/** A change `attractor token` or `attractor role` made (or the store refused), for the store's audit trail. */
export interface StoreChange {
  readonly action: 'token-create' | 'token-revoke' | 'role-grant' | 'role-revoke';
  /** The token's name, or the grantee (`user:alice@example.com`, `group:ops`). */
  readonly subject: string;
  readonly role?: Role | undefined;
  /** The store's refusal (`TOKEN_EXISTS`, `ROLE_NOT_GRANTED`…); none when the change was made. */
  readonly refusal?: string | undefined;
}

/**
 * Appends the change to the trail of the store it was made in (`audit.jsonl` beside `tokens.json` and
 * `roles.json`, or the PostgreSQL audit table), as the OS user who ran the command. `status` is the
 * command's exit status. A change the trail cannot record is an error that says the change was made.
 */
export async function auditStoreChange(
  where: StoreLocation,
  change: StoreChange,
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

/**
 * A change through `use`, appended to the store's audit trail once made (with the role `use` resolves
 * to) or once the store refused it (with the refusal's code).
 */
export async function auditedChange<T extends { role: Role }>(
  where: StoreLocation,
  change: StoreChange,
  ctx: CliContext,
  use: () => Promise<T>,
): Promise<T> {
  let result: T;
  try {
    result = await use();
  } catch (error) {
    if (error instanceof AttractorError)
      await auditStoreChange(where, { ...change, refusal: error.code }, ctx);
    throw error;
  }
  await auditStoreChange(where, { ...change, role: result.role }, ctx);
  return result;
}
