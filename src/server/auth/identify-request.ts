import { ApiError } from '../api-error.js';
import { isAuthorized } from '../bearer-auth.js';
import type { Access } from './access-file.js';
import { tokenHash, tokenRefusal } from './api-token.js';
import { currentRoles } from './current-roles.js';
import type { RunStarter } from './four-eyes-guard.js';
import type { OidcSignIn } from './oidc-sign-in.js';
import { type Principal, rememberRefusedToken } from './principal.js';
import type { RoleStore } from './role-store.js';
import type { Sessions } from './sessions.js';
import type { TokenStore } from './token-store.js';

/** How a server knows who asks: its single `--token`, personal tokens, and (when set up) sign-in. */
export interface ServerAuth {
  readonly serverToken?: string | undefined;
  readonly tokens: TokenStore;
  /** Roles of signed-in people by `--access FILE`; with `roles`, a person's roles are both's. */
  readonly access?: Access | undefined;
  /** Roles of signed-in people kept in the store (`attractor role`, the admin's `/roles` routes). */
  readonly roles: RoleStore;
  /**
   * Sign-in with OpenID Connect and its sessions, when an issuer is configured (even one that is down:
   * it still closes the server).
   */
  readonly signIn?: { readonly oidc: OidcSignIn; readonly sessions: Sessions } | undefined;
  /** Who started a run, for four-eyes gates (`started_by`); `undefined`: not recorded, such gates refuse. */
  readonly starter: RunStarter;
}

const SERVER_TOKEN: Principal = { name: 'token', kind: 'server-token', roles: ['admin'] };
const ANONYMOUS: Principal = { name: 'anonymous', kind: 'anonymous', roles: ['admin'] };

/**
 * Who a request comes from; 401 (with the reason) when the server needs to know and cannot tell. A
 * server with no `--token`, no personal token and no sign-in is open, as before teams: `anonymous`.
 */
export async function identifyRequest(request: Request, auth: ServerAuth, now: Date): Promise<Principal> {
  const header = request.headers.get('authorization') ?? undefined;
  const bearer = /^Bearer\s+(.+)$/i.exec(header ?? '')?.[1]?.trim();
  if (auth.serverToken !== undefined && isAuthorized(header, auth.serverToken)) return SERVER_TOKEN;
  const closed =
    auth.serverToken !== undefined || auth.signIn !== undefined || (await auth.tokens.configured());
  if (!closed) return ANONYMOUS;
  if (bearer) {
    const stored = await auth.tokens.byHash(tokenHash(bearer));
    if (!stored) throw unauthorized('the token is not valid.');
    const refusal = tokenRefusal(stored, now);
    if (refusal) {
      rememberRefusedToken(request, stored.name);
      throw unauthorized(refusal);
    }
    return { name: stored.name, kind: 'token', roles: [stored.role] };
  }
  const session = await auth.signIn?.sessions.lookup(request, now);
  if (session?.kind === 'person') return currentRoles(session.principal, auth.access, auth.roles);
  if (session?.kind === 'refused') throw unauthorized(session.reason);
  throw unauthorized(
    auth.signIn
      ? 'sign in at /signin, or send a token: "Authorization: Bearer <token>".'
      : 'this server needs a token: send "Authorization: Bearer <token>" (the web view asks for it).',
  );
}

function unauthorized(message: string): ApiError {
  return new ApiError(401, 'UNAUTHORIZED', message);
}
