import { ANONYMOUS_IDENTITY, type Identity, TOKEN_IDENTITY } from '../shared/identity.js';
import { refusedTokenName, requestPrincipal } from './auth/principal.js';
import type { ServerOptions } from './server-options.js';

/** Who sent a request that changes a run: what its answer, cancel, resume, fork or start records. */
export type IdentifyRequest = (request: Request) => Identity;

/**
 * The one place a request's identity is decided (decision 0410): the principal the auth guard found
 * (decision 0500) — a signed-in person, a personal token's name, `token` for the single `--token`,
 * `anonymous` on an open server. The fallback covers a request the guard did not see (none of the
 * routes that record an identity is public).
 */
export function identifyRequests(options: Pick<ServerOptions, 'token'>): IdentifyRequest {
  const fallback = options.token === undefined ? ANONYMOUS_IDENTITY : TOKEN_IDENTITY;
  return (request) => requestPrincipal(request)?.name ?? fallback;
}

/**
 * Who sent a request, for the audit trail, which also records the requests the auth guard refused: the
 * principal when the guard found one, else the name of the known token it refused (revoked, expired),
 * else `anonymous` (no token, or one the server does not know).
 */
export function identifyAudited(request: Request): Identity {
  return requestPrincipal(request)?.name ?? refusedTokenName(request) ?? ANONYMOUS_IDENTITY;
}
