import path from 'node:path';
import * as z from 'zod';
import type { SignedInPerson } from './access-file.js';
import type { Role } from './role.js';
import { type Grantee, grantedRoles, type RoleGrant, RoleGrantSchema, sameGrantee } from './role-grant.js';
import type { RoleStore } from './role-store.js';
import { roleAlreadyGranted, roleNotGranted } from './role-store-errors.js';
import { StampedJsonFile } from './stamped-json-file.js';

const RolesFileSchema = z.object({ version: z.literal(1), grants: z.array(RoleGrantSchema) });
type RolesFile = z.infer<typeof RolesFileSchema>;

/**
 * Role grants in `<data dir>/roles.json` (mode 0600), replaced atomically by `attractor role` and the
 * admin's routes; a signed-in person's request costs one stat while it is unchanged. Two changes at the
 * same moment may lose one (last rename wins), as with tokens.
 */
export class FileRoleStore implements RoleStore {
  readonly #file: StampedJsonFile<RolesFile>;

  constructor(dataDir: string) {
    this.#file = new StampedJsonFile(
      path.join(dataDir, 'roles.json'),
      RolesFileSchema,
      { version: 1, grants: [] },
      'BAD_ROLES_FILE',
    );
  }

  async grant(grant: RoleGrant): Promise<void> {
    const grants = this.#file.read().grants;
    if (grants.some((g) => g.role === grant.role && sameGrantee(g.grantee, grant.grantee)))
      throw roleAlreadyGranted(grant.grantee, grant.role);
    this.#file.write({ version: 1, grants: [...grants, grant] });
  }

  async revoke(grantee: Grantee, role: Role): Promise<RoleGrant> {
    const grants = this.#file.read().grants;
    const held = grants.find((g) => g.role === role && sameGrantee(g.grantee, grantee));
    if (!held) throw roleNotGranted(grantee, role);
    this.#file.write({ version: 1, grants: grants.filter((g) => g !== held) });
    return held;
  }

  async list(): Promise<RoleGrant[]> {
    return this.#file.read().grants;
  }

  async rolesOf(person: SignedInPerson): Promise<Role[]> {
    return grantedRoles(this.#file.read().grants, person);
  }

  async close(): Promise<void> {}
}
