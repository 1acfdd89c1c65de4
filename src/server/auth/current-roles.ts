import { type Access, rolesFor } from './access-file.js';
import type { Principal } from './principal.js';
import type { RoleStore } from './role-store.js';

/**
 * A session's principal with the roles its person holds now: those `--access FILE` grants and those
 * the store grants, each once. Resolved on every request (one stat of `roles.json`, or one indexed
 * query), so a grant or a revoke reaches people already signed in on their next request.
 */
export async function currentRoles(
  session: Principal,
  access: Access | undefined,
  store: RoleStore,
): Promise<Principal> {
  const { person } = session;
  if (!person) return session;
  const fromFile = access ? rolesFor(access, person) : [];
  const fromStore = await store.rolesOf(person);
  return { ...session, roles: [...new Set([...fromFile, ...fromStore])] };
}
