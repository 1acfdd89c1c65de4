import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { AttractorError } from '../shared/errors.js';
import type { ServerInfoJson } from '../shared/server-responses.js';
import { hostAllowList } from './allowed-hosts.js';
import { ApiError } from './api-error.js';
import type { AuditLog } from './audit/audit-log.js';
import { auditRequests } from './audit/audit-requests.js';
import { authGuard } from './auth/auth-guard.js';
import { fourEyesGuard } from './auth/four-eyes-guard.js';
import type { ServerAuth } from './auth/identify-request.js';
import { routesWithoutRule } from './auth/route-rules.js';
import { errorAnswer } from './error-answer.js';
import { serverPathRedactor } from './redact-server-paths.js';
import { hostGuard, stateChangeGuard } from './request-guards.js';
import { identifyAudited } from './request-identity.js';
import { registerAuthRoutes } from './routes/auth.js';
import { registerPipelineSourceRoutes } from './routes/pipeline-sources.js';
import { registerPipelineRoutes } from './routes/pipelines.js';
import { registerRoleRoutes } from './routes/roles.js';
import { registerRunFileRoutes } from './routes/run-files.js';
import { registerSignInRoutes } from './routes/sign-in.js';
import { registerWebAssetRoutes } from './routes/web-assets.js';
import type { RunService } from './run-service.js';
import type { ServerOptions } from './server-options.js';

/**
 * The HTTP API as a Hono app (fetch-style handler): testable without a socket, served by `startServer`.
 * `port` is the port the socket is bound to (known once it listens): `Host` headers must name it.
 * `auth` says who may ask what (`ROUTE_RULES`); a route without a rule there is refused at start.
 * With an `audit` log, every state-changing request is appended to it with its outcome.
 */
export function createServerApp(
  manager: RunService,
  options: ServerOptions,
  auth: ServerAuth,
  port: () => number = () => options.port,
  audit?: AuditLog,
): Hono {
  const app = new Hono();

  const redact = serverPathRedactor(options);
  app.onError((error, c) => {
    const { body, status } = errorAnswer(error);
    return c.json(redact(body), status as 400);
  });
  app.notFound((c) =>
    c.json({ error: { code: 'NOT_FOUND', message: `no route ${c.req.method} ${c.req.path}` } }, 404),
  );

  // No answer of this server may be read as another type than it says (a JSON answer as a script).
  app.use('*', async (c, next) => {
    await next();
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
  });
  // In this order: a request for another site's name is refused before anything else looks at it.
  app.use('*', hostGuard(hostAllowList(options.host, port, options.allowedHosts)));
  // Outside every guard after the host's: a state-changing request they refuse is audited too.
  if (audit) app.use('*', auditRequestsTo(audit));
  if (options.corsOrigin.length > 0) app.use('*', cors({ origin: [...options.corsOrigin] }));
  app.use('*', stateChangeGuard(options.corsOrigin));
  app.use('*', authGuard(auth));
  app.use(
    '*',
    bodyLimit({
      maxSize: options.bodyLimitBytes,
      onError: () => {
        throw new ApiError(
          413,
          'BODY_TOO_LARGE',
          `request bodies are limited to ${options.bodyLimitBytes} bytes.`,
        );
      },
    }),
  );

  app.use('/pipelines/:id/questions/:qid/answer', fourEyesGuard(manager, options.fourEyes, auth.starter));
  app.get('/healthz', (c) => c.json({ status: manager.draining ? 'draining' : 'ok' }));
  registerWebAssetRoutes(app);
  registerPipelineRoutes(app, manager, options);
  registerRunFileRoutes(app, manager);
  registerPipelineSourceRoutes(app, options);
  registerAuthRoutes(app, auth.tokens);
  registerRoleRoutes(app, auth.roles);
  registerSignInRoutes(app, auth);
  // What this server offers the web view; read per request, so a route added to the app shows up.
  app.get('/server-info', (c) =>
    c.json({
      fork: app.routes.some((r) => r.method === 'POST' && r.path === '/pipelines/:id/fork'),
      allow_dirs: options.allowDirs.length > 0,
      allow_tools: options.allowTools,
    } satisfies ServerInfoJson),
  );
  const unruled = routesWithoutRule(app.routes);
  if (unruled.length > 0) {
    throw new AttractorError(
      'ROUTE_WITHOUT_RULE',
      `routes without an access rule: ${unruled.join(', ')}; add each to ROUTE_RULES (src/server/auth/route-rules.ts).`,
    );
  }
  return app;
}

/** The audit of state-changing requests; a trail that cannot be written is said on stderr. */
function auditRequestsTo(audit: AuditLog): MiddlewareHandler {
  return auditRequests(audit, identifyAudited, (error) =>
    process.stderr.write(`attractor serve: the audit trail (${audit.where}): ${error.message}\n`),
  );
}
