import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Hono } from 'hono';
import { definedFields } from '../../shared/defined-fields.js';
import { packageRoot } from '../../shared/package-root.js';
import { ApiError } from '../api-error.js';
import { acceptedEncoding, compressBody } from '../compressed-body.js';
import { FAVICON_SVG } from '../favicon.js';
import { WEB_PAGE, WEB_PAGE_HEADERS } from '../web-page.js';

const ASSETS: Readonly<Record<string, { file: string; type: string }>> = {
  '/web/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/web/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
};

/** Paths served without a token: the page shell and what it loads carry no run data. */
export const PUBLIC_WEB_PATHS: readonly string[] = ['/', '/favicon.svg', ...Object.keys(ASSETS)];

/** A bundle file as it is, compressed both ways, and its validator. */
interface Asset {
  plain: Buffer;
  br: Buffer;
  gzip: Buffer;
  etag: string;
}

function readAsset(file: string): Asset {
  try {
    const plain = readFileSync(path.join(packageRoot(), 'dist', 'web', file));
    const etag = `"${createHash('sha256').update(plain).digest('base64url').slice(0, 22)}"`;
    return { plain, br: compressBody(plain, 'br', 11), gzip: compressBody(plain, 'gzip', 9), etag };
  } catch {
    throw new ApiError(
      503,
      'WEB_BUNDLE_MISSING',
      `the web view's ${file} was not built; run "npm run build" in the attractor package.`,
    );
  }
}

/** Whether an `If-None-Match` header names this validator (or `*`). */
const matches = (ifNoneMatch: string | undefined, etag: string): boolean =>
  (ifNoneMatch ?? '')
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');

/**
 * The web view: its page shell, script, style and icon. The bundle is read and compressed once (it
 * changes only when the package is rebuilt); each file has an ETag from its content, so a reload asks
 * "still this?" and gets a 304 without the body.
 */
export function registerWebAssetRoutes(app: Hono): void {
  const cache = new Map<string, Asset>();
  const read = (file: string): Asset => {
    const entry = cache.get(file) ?? readAsset(file);
    cache.set(file, entry);
    return entry;
  };

  app.get('/', (c) => c.html(WEB_PAGE, 200, WEB_PAGE_HEADERS));
  for (const [route, asset] of Object.entries(ASSETS)) {
    app.get(route, (c) => {
      const entry = read(asset.file);
      const common = { 'cache-control': 'no-cache', etag: entry.etag, vary: 'Accept-Encoding' };
      if (matches(c.req.header('if-none-match'), entry.etag)) return c.body(null, 304, common);
      const encoding = acceptedEncoding(c.req.header('accept-encoding'));
      const body = encoding ? entry[encoding] : entry.plain;
      return c.body(new Uint8Array(body), 200, {
        ...common,
        'content-type': asset.type,
        ...definedFields({ 'content-encoding': encoding }),
      });
    });
  }
  app.get('/favicon.svg', (c) =>
    c.body(FAVICON_SVG, 200, { 'content-type': 'image/svg+xml', 'cache-control': 'max-age=86400' }),
  );
}
