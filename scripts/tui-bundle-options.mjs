// The esbuild options of the TUI bundle (scripts/bundle-tui.mjs), apart from the build so a test can
// hold them to their promise: the dependencies are bundled as they are published. No plugin here loads
// a file's text (esbuild's onLoad); the one plugin only decides which of our own imports stay imports
// (test/scripts/tui-bundle-options.test.ts).
import path from 'node:path';

/**
 * Imports that leave dist/tui/ (our other modules) stay imports, rewritten relative to the bundle, which
 * sits in dist/tui/ itself; imports inside dist/tui/ are bundled. Only our own modules are resolved here.
 */
function ourModulesExternal(tuiDir) {
  return {
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
}

/** `tuiDir`: dist/tui, holding tsc's output; the bundle is written beside it. */
export function tuiBundleOptions(tuiDir, { minify = true } = {}) {
  return {
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
    minify,
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
    plugins: [ourModulesExternal(tuiDir)],
    logLevel: 'warning',
  };
}
