import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Hono } from 'hono';
import { packageRoot } from '../../shared/package-root.js';
import { ApiError } from '../api-error.js';
import { FAVICON_SVG } from '../favicon.js';
import { WEB_PAGE, WEB_PAGE_HEADERS } from '../web-page.js';

const ASSETS: Readonly<Record<string, { file: string; type: string }>> = {
  '/web/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/web/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
};

/** Paths served without a token: the page shell and what it loads carry no run data. */
export const PUBLIC_WEB_PATHS: readonly string[] = ['/', '/favicon.svg', ...Object.keys(ASSETS)];

/**
 * The web view: its page shell, script, style and icon. The bundle is read once; it changes only when
 * the package is rebuilt.
 */
export function registerWebAssetRoutes(app: Hono): void {
  // Each file as it is and gzipped (React DOM is most of the script; gzip takes it to about a third).
  const cache = new Map<string, { plain: Buffer; gzipped: Buffer }>();
  const read = (file: string): { plain: Buffer; gzipped: Buffer } => {
    let entry = cache.get(file);
    if (entry === undefined) {
      try {
        const plain = readFileSync(path.join(packageRoot(), 'dist', 'web', file));
        entry = { plain, gzipped: gzipSync(plain, { level: 9 }) };
      } catch {
        throw new ApiError(
          503,
          'WEB_BUNDLE_MISSING',
          `the web view's ${file} was not built; run "npm run build" in the attractor package.`,
        );
      }
      cache.set(file, entry);
    }
    return entry;
  };

  app.get('/', (c) => c.html(WEB_PAGE, 200, WEB_PAGE_HEADERS));
  for (const [route, asset] of Object.entries(ASSETS)) {
    app.get(route, (c) => {
      const { plain, gzipped } = read(asset.file);
      const gzip = /\bgzip\b/.test(c.req.header('accept-encoding') ?? '');
      const body = gzip ? gzipped : plain;
      return c.body(new Uint8Array(body), 200, {
        'content-type': asset.type,
        'cache-control': 'no-cache',
        vary: 'Accept-Encoding',
        ...(gzip ? { 'content-encoding': 'gzip' } : {}),
      });
    });
  }
  app.get('/favicon.svg', (c) =>
    c.body(FAVICON_SVG, 200, { 'content-type': 'image/svg+xml', 'cache-control': 'max-age=86400' }),
  );
}
