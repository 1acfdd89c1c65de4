// Bundles the web view (src/web/main.tsx, React and React DOM) into dist/web/app.js and app.css, which
// the server serves at /web/app.js and /web/app.css (src/server/routes/web-assets.ts). Built here, at
// build time, so the page loads nothing from another site and works offline; esbuild reads the
// TypeScript itself (src/web has its own tsconfig.web.json for type checking, with the DOM's types).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'dist', 'web');
mkdirSync(outdir, { recursive: true });

// WEB_BUNDLE_MINIFY=0 keeps names readable while debugging in the browser.
const minify = process.env.WEB_BUNDLE_MINIFY !== '0';
const result = await build({
  entryPoints: { app: path.join(root, 'src', 'web', 'main.tsx') },
  outdir,
  bundle: true,
  platform: 'browser',
  format: 'esm',
  target: ['chrome109', 'firefox115', 'safari16'],
  jsx: 'automatic',
  minify,
  legalComments: 'linked',
  // React's production build, as any bundled app chooses it.
  define: { 'process.env.NODE_ENV': '"production"' },
  tsconfig: path.join(root, 'tsconfig.web.json'),
  metafile: true,
  logLevel: 'warning',
});
if (process.env.WEB_BUNDLE_REPORT === '1') {
  for (const [file, { bytes }] of Object.entries(result.metafile.outputs)) console.log(`${file} ${bytes}`);
}
