import * as z from 'zod';
import { RoleSchema } from './role.js';
import { type Grantee, GranteeIdSchema } from './role-grant.js';

/** The body of `POST /roles/grant` and `POST /roles/revoke`: one user or one group, and the role. */
export const RoleChangeRequestSchema = z
  .object({
    user: GranteeIdSchema.optional(),
    group: GranteeIdSchema.optional(),
    role: RoleSchema,
  })
  .strict()
  .refine((body) => (body.user === undefined) !== (body.group === undefined), {
    message: 'name one user ("user": email or subject) or one group ("group"), not both',
  });
export type RoleChangeRequest = z.infer<typeof RoleChangeRequestSchema>;

/** Whom a checked request names. */
export function requestGrantee(body: RoleChangeRequest): Grantee {
  return body.user !== undefined ? { kind: 'user', id: body.user } : { kind: 'group', id: body.group ?? '' };
}
