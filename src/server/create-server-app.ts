import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { ZodError } from 'zod';
import { AttractorError } from '../shared/errors.js';
import { ApiError } from './api-error.js';
import { isAuthorized } from './bearer-auth.js';
import { registerPipelineRoutes } from './routes/pipelines.js';
import { registerRunFileRoutes } from './routes/run-files.js';
import type { RunManager } from './run-manager.js';
import type { ServerOptions } from './server-options.js';
import { WEB_PAGE } from './web-page.js';

/** The HTTP API as a Hono app (fetch-style handler): testable without a socket, served by `startServer`. */
export function createServerApp(manager: RunManager, options: ServerOptions): Hono {
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

  if (options.corsOrigin) app.use('*', cors({ origin: options.corsOrigin }));
  const token = options.token;
  if (token) {
    app.use('*', async (c, next) => {
      if (c.req.path === '/healthz') return next();
      if (!c.req.header('authorization')) {
        throw new ApiError(401, 'UNAUTHORIZED', 'this server needs "Authorization: Bearer <token>".');
      }
      if (!isAuthorized(c.req.header('authorization'), token)) {
        throw new ApiError(403, 'FORBIDDEN', 'the bearer token is not valid.');
      }
      return next();
    });
  }
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
  app.get('/', (c) => c.html(WEB_PAGE));
  registerPipelineRoutes(app, manager, options);
  registerRunFileRoutes(app, manager);
  return app;
}
