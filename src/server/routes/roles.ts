import type { Hono } from 'hono';
import { AttractorError } from '../../shared/errors.js';
import { ANONYMOUS_IDENTITY } from '../../shared/identity.js';
import { ApiError } from '../api-error.js';
import { noteForAudit } from '../audit/audit-notes.js';
import { requestPrincipal } from '../auth/principal.js';
import { RoleChangeRequestSchema, requestGrantee } from '../auth/role-change-request.js';
import { granteeLabel } from '../auth/role-grant.js';
import type { RoleStore } from '../auth/role-store.js';
import { jsonBody } from '../json-body.js';

/** What a store's refusal answers with: the grant is there already (409), or is not (404). */
const REFUSALS: Readonly<Record<string, number>> = { ROLE_ALREADY_GRANTED: 409, ROLE_NOT_GRANTED: 404 };

/**
 * The roles the store grants signed-in people (`GET /roles`), granted and revoked by admins
 * (`POST /roles/grant`, `POST /roles/revoke`, JSON `{user | group, role}`), each change audited as
 * `role-grant` / `role-revoke` with its subject and role. What `--access FILE` grants is not here.
 */
export function registerRoleRoutes(app: Hono, roles: RoleStore): void {
  app.get('/roles', async (c) => c.json(await roles.list()));
  app.post('/roles/grant', async (c) => {
    const body = RoleChangeRequestSchema.parse(await jsonBody(c.req.raw));
    const grantee = requestGrantee(body);
    noteForAudit(c.req.raw, { subject: granteeLabel(grantee), role: body.role });
    const grant = {
      grantee,
      role: body.role,
      granted_at: new Date().toISOString(),
      // The guard found who asks (an admin) before this handler runs; `anonymous` only on an open server.
      granted_by: requestPrincipal(c.req.raw)?.name ?? ANONYMOUS_IDENTITY,
    };
    await answerRefusal(roles.grant(grant));
    return c.json(grant, 201);
  });
  app.post('/roles/revoke', async (c) => {
    const body = RoleChangeRequestSchema.parse(await jsonBody(c.req.raw));
    const grantee = requestGrantee(body);
    noteForAudit(c.req.raw, { subject: granteeLabel(grantee), role: body.role });
    return c.json(await answerRefusal(roles.revoke(grantee, body.role)));
  });
}

async function answerRefusal<T>(change: Promise<T>): Promise<T> {
  try {
    return await change;
  } catch (error) {
    if (!AttractorError.isInstance(error)) throw error;
    const status = REFUSALS[error.code];
    if (status === undefined) throw error;
    throw new ApiError(status, error.code, error.message);
  }
}
