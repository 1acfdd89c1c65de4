import * as z from 'zod';
import type { SignedInPerson } from './access-file.js';
import { type Role, RoleSchema } from './role.js';

/** Whom a grant names: an OpenID Connect user (their email, or their subject) or a group of the `groups` claim. */
/** A user's email or subject, or a group's name, as the provider sends it. */
export const GranteeIdSchema = z
  .string()
  .min(1, 'give a name, not an empty string')
  .max(256, 'at most 256 characters')
  .refine((id) => id.trim() === id, 'no spaces before or after it');

export const GranteeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), id: GranteeIdSchema }),
  z.object({ kind: z.literal('group'), id: GranteeIdSchema }),
]);
export type Grantee = z.infer<typeof GranteeSchema>;

/** A role kept in the store (decision 0500): who holds it, since when, and who granted it. */
export const RoleGrantSchema = z.object({
  grantee: GranteeSchema,
  role: RoleSchema,
  granted_at: z.string(),
  granted_by: z.string().min(1),
});
export type RoleGrant = z.infer<typeof RoleGrantSchema>;

/** How a grantee reads in the audit trail's `subject` and in messages: `user:alice@example.com`, `group:ops`. */
export function granteeLabel(grantee: Grantee): string {
  return `${grantee.kind}:${grantee.id}`;
}

export const sameGrantee = (a: Grantee, b: Grantee): boolean => a.kind === b.kind && a.id === b.id;

/** The grantees a signed-in person is: their subject, their email, each of their groups. */
export function granteesOf(person: SignedInPerson): Grantee[] {
  return [
    { kind: 'user', id: person.subject },
    ...(person.email !== undefined ? [{ kind: 'user' as const, id: person.email }] : []),
    ...person.groups.map((id) => ({ kind: 'group' as const, id })),
  ];
}

/** The roles `grants` give `person`, each once. */
export function grantedRoles(grants: readonly RoleGrant[], person: SignedInPerson): Role[] {
  const theirs = granteesOf(person);
  const roles = grants.filter((g) => theirs.some((t) => sameGrantee(t, g.grantee))).map((g) => g.role);
  return [...new Set(roles)];
}
