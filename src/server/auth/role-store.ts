import type { SignedInPerson } from './access-file.js';
import type { Role } from './role.js';
import type { Grantee, RoleGrant } from './role-grant.js';

/**
 * Roles of signed-in people kept where the server keeps its runs (a file under the data directory, or
 * PostgreSQL with `--store`), beside those of `--access FILE`. `attractor role` and the admin's
 * `/roles` routes write; the server reads on each request of a signed-in person, so a grant or a
 * revoke takes effect on their next request.
 */
export interface RoleStore {
  /** Adds the grant; `ROLE_ALREADY_GRANTED` when the grantee holds that role already. */
  grant(grant: RoleGrant): Promise<void>;
  /** Removes the grantee's role; `ROLE_NOT_GRANTED` when the store does not grant it. */
  revoke(grantee: Grantee, role: Role): Promise<RoleGrant>;
  list(): Promise<RoleGrant[]>;
  /** The roles the store grants `person`: by subject, by email, by each of their groups. */
  rolesOf(person: SignedInPerson): Promise<Role[]>;
  close(): Promise<void>;
}
