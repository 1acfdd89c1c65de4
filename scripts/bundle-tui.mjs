// Bundles the TUI (dist/tui/tui-entry.js) with Ink, React and Yoga into one ES module,
// dist/tui/tui-entry.bundle.js, which the CLI imports on a terminal (src/cli/load-tui.ts).
//
// Why: loaded module by module, Ink's tree (React's reconciler, Yoga, ~100 files, CommonJS ones parsed
// twice by Node's ESM loader) cost ~600 ms at start-up; one minified file with React's production build
// loads in a fraction of that (bench/tui-startup.mjs).
//
// The dependencies are bundled as they are published: no plugin here changes their text. Our own modules
// outside dist/tui/ stay external, so the TUI shares them (errors, the compiler, the answer channel) with
// the rest of the CLI instead of carrying second copies.
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tuiDir = path.join(root, 'dist', 'tui');

/**
 * Imports that leave dist/tui/ (our other modules) stay imports, rewritten relative to the bundle, which
 * sits in dist/tui/ itself; imports inside dist/tui/ are bundled. Only our own modules are resolved here.
 */
const ourModulesExternal = {
  name: 'our-modules-external',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (!args.importer.startsWith(tuiDir + path.sep)) return undefined;
      const target = path.resolve(path.dirname(args.importer), args.path);
      if (target.startsWith(tuiDir + path.sep)) return undefined;
      const fromBundle = path.relative(tuiDir, target).split(path.sep).join('/');
      return { path: fromBundle.startsWith('.') ? fromBundle : `./${fromBundle}`, external: true };
    });
  },
};

// Outputs of earlier builds go: this bundle's chunks, and the CommonJS bundle and its V8 code caches.
for (const name of readdirSync(tuiDir)) {
  if (/^tui-(entry\.bundle\.|chunk-)/.test(name)) rmSync(path.join(tuiDir, name));
}

await build({
  entryPoints: { 'tui-entry.bundle': path.join(tuiDir, 'tui-entry.js') },
  outdir: tuiDir,
  chunkNames: 'tui-chunk-[hash]',
  bundle: true,
  platform: 'node',
  // An ES module, so Ink's and Yoga's top-level awaits stay as they are.
  format: 'esm',
  // Ink imports its React DevTools bridge only when DEV=true; splitting keeps that bridge (and the
  // WebSocket client it brings) in a chunk of its own, imported only then, instead of hoisting its
  // import of react-devtools-core into the bundle's.
  splitting: true,
  target: 'node20',
  // TUI_BUNDLE_MINIFY=0 keeps names readable in a CPU profile (bench/README.md).
  minify: process.env.TUI_BUNDLE_MINIFY !== '0',
  legalComments: 'linked',
  // React's production build, chosen here as any bundled app chooses it; the process's own NODE_ENV
  // stays what it was, for the run's tools and agents.
  define: { 'process.env.NODE_ENV': '"production"' },
  // Not installed: only the DevTools chunk names it, and the CLI never loads the bundle with DEV=true
  // (cli/load-tui.ts).
  external: ['react-devtools-core'],
  // Some of Ink's dependencies are CommonJS and require() Node's built-ins; an ES module has no
  // `require`, so the bundle makes one.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  plugins: [ourModulesExternal],
  logLevel: 'warning',
});
