import { readFileSync } from 'node:fs';
import type { Hono } from 'hono';
import { ApiError } from '../api-error.js';
import { FAVICON_SVG } from '../favicon.js';
import { WEB_PAGE, WEB_PAGE_HEADERS } from '../web-page.js';

/** dist/web/, from src/server/routes/ (tests) and dist/server/routes/ (the package) alike. */
const BUNDLE_DIR = new URL('../../../dist/web/', import.meta.url);

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
  const cache = new Map<string, string>();
  const read = (file: string): string => {
    let text = cache.get(file);
    if (text === undefined) {
      try {
        text = readFileSync(new URL(file, BUNDLE_DIR), 'utf8');
      } catch {
        throw new ApiError(
          503,
          'WEB_BUNDLE_MISSING',
          `the web view's ${file} was not built; run "npm run build" in the attractor package.`,
        );
      }
      cache.set(file, text);
    }
    return text;
  };

  app.get('/', (c) => c.html(WEB_PAGE, 200, WEB_PAGE_HEADERS));
  for (const [route, asset] of Object.entries(ASSETS)) {
    app.get(route, (c) =>
      c.body(read(asset.file), 200, {
        'content-type': asset.type,
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
      }),
    );
  }
  app.get('/favicon.svg', (c) =>
    c.body(FAVICON_SVG, 200, { 'content-type': 'image/svg+xml', 'cache-control': 'max-age=86400' }),
  );
}
