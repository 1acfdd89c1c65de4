import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { ZodError } from 'zod';
import { AttractorError } from '../shared/errors.js';
import { hostAllowList } from './allowed-hosts.js';
import { ApiError } from './api-error.js';
import { hostGuard, stateChangeGuard, tokenGuard } from './request-guards.js';
import { registerPipelineRoutes } from './routes/pipelines.js';
import { registerRunFileRoutes } from './routes/run-files.js';
import type { RunManager } from './run-manager.js';
import type { ServerOptions } from './server-options.js';
import { WEB_PAGE, WEB_PAGE_HEADERS } from './web-page.js';

/**
 * The HTTP API as a Hono app (fetch-style handler): testable without a socket, served by `startServer`.
 * `port` is the port the socket is bound to (known once it listens): `Host` headers must name it.
 */
export function createServerApp(
  manager: RunManager,
  options: ServerOptions,
  port: () => number = () => options.port,
): Hono {
  const app = new Hono();

  app.onError((error, c) => {
    if (error instanceof ApiError) return c.json(error.body(), error.status as 400);
    if (error instanceof ZodError) {
      const issues = error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
      const message = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
      return c.json({ error: { code: 'BAD_REQUEST', message, issues } }, 400);
    }
    if (AttractorError.isInstance(error))
      return c.json({ error: { code: error.code, message: error.describe() } }, 400);
    return c.json({ error: { code: 'INTERNAL', message: 'internal server error' } }, 500);
  });
  app.notFound((c) =>
    c.json({ error: { code: 'NOT_FOUND', message: `no route ${c.req.method} ${c.req.path}` } }, 404),
  );

  // In this order: a request for another site's name is refused before anything else looks at it.
  app.use('*', hostGuard(hostAllowList(options.host, port, options.allowedHosts)));
  if (options.corsOrigin.length > 0) app.use('*', cors({ origin: [...options.corsOrigin] }));
  app.use('*', stateChangeGuard(options.corsOrigin));
  if (options.token) app.use('*', tokenGuard(options.token));
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

  app.get('/healthz', (c) => c.json({ status: manager.draining ? 'draining' : 'ok' }));
  app.get('/', (c) => c.html(WEB_PAGE, 200, WEB_PAGE_HEADERS));
  registerPipelineRoutes(app, manager, options);
  registerRunFileRoutes(app, manager);
  return app;
}
