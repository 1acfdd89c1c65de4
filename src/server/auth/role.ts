import * as z from 'zod';
import { ROLES } from './role-names.js';

/**
 * What a person or a token may do on a shared server (decision 0500): `viewer` sees runs, `operator`
 * starts, cancels, resumes and forks them, `approver` answers gates, `admin` manages tokens and roles.
 * Every role sees runs; only `admin` implies the others, so starting and approving stay separable.
 */
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

/** True when someone holding `held` may do what needs `needed`; nothing is granted by default. */
export function grants(held: readonly Role[], needed: Role): boolean {
  if (held.includes('admin') || held.includes(needed)) return true;
  return needed === 'viewer' && held.length > 0;
}
