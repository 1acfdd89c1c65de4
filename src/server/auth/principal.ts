import type { SignedInPerson } from './access-file.js';
import type { Role } from './role.js';

/**
 * Who a request comes from, decided once per request by the auth guard: a person signed in with
 * OpenID Connect, a named personal token, the single `--token` (`token`, an admin), or, on a server
 * with no sign-in configured, `anonymous` (anyone who reaches it, as before teams).
 */
export interface Principal {
  /** What `started_by`, `answered_by`… record: the person's name, or the token's. */
  readonly name: string;
  readonly kind: 'person' | 'token' | 'server-token' | 'anonymous';
  readonly roles: readonly Role[];
  /**
   * Who signed in, as grants name them (subject, email, groups): a session's roles are resolved from
   * it on each request (`currentRoles`), so a role revoked in the store is gone on their next request.
   */
  readonly person?: SignedInPerson | undefined;
}

const principals = new WeakMap<Request, Principal>();

/** Kept by the auth guard for the rest of the request (the raw `Request` is the key Hono passes on). */
export function rememberPrincipal(request: Request, principal: Principal): void {
  principals.set(request, principal);
}

/**
 * The request's principal; `undefined` only for the public paths (page shell, sign-in, `/healthz`),
 * which the guard lets through without deciding who asks.
 */
export function requestPrincipal(request: Request): Principal | undefined {
  return principals.get(request);
}

const refusedTokens = new WeakMap<Request, string>();

/** A known token the guard refused (revoked, expired): its name, so the audit trail can say whose it was. */
export function rememberRefusedToken(request: Request, name: string): void {
  refusedTokens.set(request, name);
}

/** The name of the known token this request was refused for, if it was. */
export function refusedTokenName(request: Request): string | undefined {
  return refusedTokens.get(request);
}
