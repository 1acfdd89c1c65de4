import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../api-error.js';
import { identifyRequest, type ServerAuth } from './identify-request.js';
import { rememberPrincipal } from './principal.js';
import { grants } from './role.js';
import { ruleFor } from './route-rules.js';

/**
 * Decides who asks (`identifyRequest`) and whether the route's rule lets them (`ROUTE_RULES`): 401 when
 * the server cannot tell who asks, 403 naming the role that is missing. A path no route serves needs a
 * known requester, so a 404 tells nothing to a stranger.
 */
export function authGuard(auth: ServerAuth, now: () => Date = () => new Date()): MiddlewareHandler {
  return async (c, next) => {
    const rule = ruleFor(c.req.method, c.req.path);
    if (rule?.need === 'public') return next();
    try {
      const principal = await identifyRequest(c.req.raw, auth, now());
      rememberPrincipal(c.req.raw, principal);
      if (rule && rule.need !== 'signed-in' && !grants(principal.roles, rule.need)) {
        const held = principal.roles.length > 0 ? `has ${principal.roles.join(', ')}` : 'has no role';
        throw new ApiError(
          403,
          'FORBIDDEN',
          `${c.req.method} ${rule.path} needs the ${rule.need} role; ${principal.name} ${held}.`,
          { needs: rule.need },
        );
      }
    } catch (error) {
      if (error instanceof ApiError && error.status === 401)
        c.header('WWW-Authenticate', 'Bearer realm="attractor"');
      throw error;
    }
    await next();
  };
}
