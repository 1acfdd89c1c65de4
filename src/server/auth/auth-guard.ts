import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../api-error.js';
import { rememberAccessCheck } from './access-check.js';
import { identifyRequest, type ServerAuth } from './identify-request.js';
import type { Principal } from './principal.js';
import { rememberPrincipal } from './principal.js';
import { grants, type Role } from './role.js';
import { type RouteRule, ruleFor } from './route-rules.js';

export const SIGN_IN_PATH = '/signin';

/**
 * Decides who asks (`identifyRequest`) and whether the route's rule lets them (`ROUTE_RULES`): 401 when
 * the server cannot tell who asks, 403 naming the role that is missing. A path no route serves needs a
 * known requester, so a 404 tells nothing to a stranger. With sign-in configured, a 401 names the
 * sign-in page (`sign_in`).
 */
export function authGuard(auth: ServerAuth, now: () => Date = () => new Date()): MiddlewareHandler {
  return async (c, next) => {
    const rule = ruleFor(c.req.method, c.req.path);
    if (rule?.need === 'public') return next();
    try {
      const principal = await identifyRequest(c.req.raw, auth, now());
      rememberPrincipal(c.req.raw, principal);
      rememberAccessCheck(c.req.raw, async () => {
        const again = await identifyRequest(c.req.raw, auth, now()).catch(() => undefined);
        return again !== undefined && missingRole(rule, again) === undefined;
      });
      const missing = missingRole(rule, principal);
      if (missing) {
        const held = principal.roles.length > 0 ? `has ${principal.roles.join(', ')}` : 'has no role';
        throw new ApiError(
          403,
          'FORBIDDEN',
          `${c.req.method} ${rule?.path} needs the ${missing} role; ${principal.name} ${held}.`,
          { needs: missing },
        );
      }
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401)) throw error;
      c.header('WWW-Authenticate', 'Bearer realm="attractor"');
      // Where a person signs in, so the web view offers it rather than only a token field.
      if (!auth.signIn) throw error;
      throw new ApiError(401, error.code, error.message, { ...error.details, sign_in: SIGN_IN_PATH });
    }
    await next();
  };
}

/** The role the route needs that the principal lacks; a path no route serves needs only a known requester. */
function missingRole(rule: RouteRule | undefined, principal: Principal): Role | undefined {
  if (!rule || rule.need === 'public' || rule.need === 'signed-in') return undefined;
  return grants(principal.roles, rule.need) ? undefined : rule.need;
}
