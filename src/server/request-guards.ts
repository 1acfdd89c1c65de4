import type { MiddlewareHandler } from 'hono';
import { ApiError } from './api-error.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Refuses a request whose `Host` is not one this server answers to (`hostAllowList`). */
export function hostGuard(allowed: (host: string | undefined) => boolean): MiddlewareHandler {
  return async (c, next) => {
    const host = c.req.header('host');
    if (!allowed(host)) {
      throw new ApiError(
        403,
        'HOST_NOT_ALLOWED',
        `this server does not answer to the host name "${host ?? ''}"; its operator can allow it with --allowed-host.`,
      );
    }
    await next();
  };
}

/**
 * A request that changes something must say `Content-Type: application/json` (a cross-site form or a
 * `text/plain` fetch cannot, without a CORS preflight this server answers only for `--cors-origin`), and
 * an `Origin`, when it sends one, must be the server's own (`http(s)://` + the `Host` it was reached by,
 * which the host guard has checked) or one named by `--cors-origin`. Scripts and curl send no Origin.
 */
export function stateChangeGuard(corsOrigins: readonly string[]): MiddlewareHandler {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const mediaType = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    if (mediaType !== 'application/json') {
      throw new ApiError(
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        `${c.req.method} requests need "Content-Type: application/json"${mediaType ? `, not "${mediaType}"` : ''}.`,
      );
    }
    const origin = c.req.header('origin');
    if (origin !== undefined) {
      const host = (c.req.header('host') ?? '').toLowerCase();
      const own = origin.toLowerCase() === `http://${host}` || origin.toLowerCase() === `https://${host}`;
      if (!own && !corsOrigins.includes(origin)) {
        throw new ApiError(
          403,
          'ORIGIN_NOT_ALLOWED',
          `requests from the web page at "${origin}" may not change anything here; the operator can allow that origin with --cors-origin.`,
        );
      }
    }
    await next();
  };
}
