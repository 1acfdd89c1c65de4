import { createHash, randomBytes } from 'node:crypto';
import * as z from 'zod';
import { RoleSchema } from './role.js';

/** A personal API token as a store keeps it: its SHA-256, never the token itself. */
export const StoredTokenSchema = z.object({
  name: z.string().min(1),
  role: RoleSchema,
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  created_at: z.string(),
  expires_at: z.string().optional(),
  revoked_at: z.string().optional(),
});
export type StoredToken = z.infer<typeof StoredTokenSchema>;

/** Names a script can be told apart by, and that print safely in a table. */
export const TokenNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'a token name is 1-64 letters, digits, ".", "_" or "-"');

const PREFIX = 'attr_';

/** A new token: 32 random bytes, prefixed so a leaked one is recognisable in logs and secret scanners. */
export function newTokenText(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

/** The token is random and long, so a plain SHA-256 is enough to make the stored form useless. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Why a stored token no longer lets its holder in, or `undefined` while it does. */
export function tokenRefusal(token: StoredToken, now: Date): string | undefined {
  if (token.revoked_at !== undefined) return `the token "${token.name}" was revoked at ${token.revoked_at}.`;
  if (token.expires_at !== undefined && Date.parse(token.expires_at) <= now.getTime()) {
    return `the token "${token.name}" expired at ${token.expires_at}.`;
  }
  return undefined;
}

/** `active`, `revoked` or `expired`: what `attractor token list` shows. */
export function tokenStatus(token: StoredToken, now: Date): 'active' | 'revoked' | 'expired' {
  if (token.revoked_at !== undefined) return 'revoked';
  return tokenRefusal(token, now) === undefined ? 'active' : 'expired';
}
