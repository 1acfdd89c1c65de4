import * as z from 'zod';

/**
 * A session as a store keeps it: the SHA-256 of the id the cookie carries (never the id), who signed
 * in (what `currentRoles` resolves roles from on each request, never the roles), and its lifetime.
 */
export const StoredSessionSchema = z.object({
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  person: z.object({
    subject: z.string().min(1),
    email: z.string().optional(),
    groups: z.array(z.string()),
  }),
  created_at: z.iso.datetime(),
  expires_at: z.iso.datetime(),
});
export type StoredSession = z.infer<typeof StoredSessionSchema>;
