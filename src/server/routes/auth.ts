import type { Hono } from 'hono';
import type { WhoAmIJson } from '../../shared/server-responses.js';
import { requestPrincipal } from '../auth/principal.js';
import type { TokenStore } from '../auth/token-store.js';

/** Who am I (`/whoami`) and, for admins, the personal tokens (never their hashes). */
export function registerAuthRoutes(app: Hono, tokens: TokenStore): void {
  app.get('/whoami', (c) => {
    const principal = requestPrincipal(c.req.raw);
    if (!principal) return c.json({});
    return c.json({
      name: principal.name,
      kind: principal.kind,
      roles: principal.roles,
    } satisfies WhoAmIJson);
  });
  app.get('/tokens', async (c) => {
    const listed = await tokens.list();
    return c.json(listed.map(({ hash: _hash, ...shown }) => shown));
  });
}
