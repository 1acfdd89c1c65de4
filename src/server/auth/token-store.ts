import type { StoredToken } from './api-token.js';

/**
 * Where personal API tokens are kept: a file under the server's data directory, or PostgreSQL with
 * `--store`. `attractor token` writes, the server reads on each request, so a new or revoked token
 * takes effect at once without a restart.
 */
export interface TokenStore {
  /** Adds a token; `TOKEN_EXISTS` when a live (not revoked) token has that name. */
  create(token: StoredToken): Promise<void>;
  list(): Promise<StoredToken[]>;
  byHash(hash: string): Promise<StoredToken | undefined>;
  /** Marks the live token of that name revoked; `TOKEN_NOT_FOUND` when there is none. */
  revoke(name: string, at: Date): Promise<StoredToken>;
  /** True once any token was ever created (revoked ones count: revoking the last does not open the server). */
  configured(): Promise<boolean>;
  close(): Promise<void>;
}
