// The esbuild options of the CLI's bundle (scripts/bundle-cli.mjs), apart from the build so a test can
// hold them to their promises: the dependencies go in as they are published (no plugin, no alias, no
// injected code), and the chunks a command loads are the ones it needs
// (test/scripts/cli-bundle-options.test.ts, test/cli/startup-imports.test.ts).
import path from 'node:path';

/** `distDir`: the package's dist/, holding tsc's output; the bundle is written to dist/bin/. */
export function cliBundleOptions(distDir) {
  return {
    entryPoints: { attractor: path.join(distDir, 'cli', 'bin-entry.js') },
    outdir: path.join(distDir, 'bin'),
    chunkNames: 'chunk-[hash]',
    bundle: true,
    platform: 'node',
    // An ES module, so Ink's and Yoga's top-level awaits stay as they are.
    format: 'esm',
    // Each command's lazy import() stays lazy: a dry run never loads the LLM client, and only a terminal
    // loads Ink and React. Ink's React DevTools bridge lands in a chunk only DEV=true would load, and
    // bin/attractor.js runs the modules, not the bundle, with DEV=true.
    splitting: true,
    target: 'node20',
    // Not minified: a --verbose stack trace names our functions and points at readable code.
    minify: false,
    legalComments: 'linked',
    // React's production build, chosen here as any bundled app chooses it; the process's own NODE_ENV
    // stays what it was, for the run's tools and agents.
    define: { 'process.env.NODE_ENV': '"production"' },
    external: [
      // Not installed: only Ink's DevTools chunk names it.
      'react-devtools-core',
      // pg's optional native driver, not installed; pg falls back to JavaScript.
      'pg-native',
      // cosmiconfig (under graphile-worker) loads TypeScript only for a TypeScript config file, which
      // attractor never asks it to read; bundling it would add 9 MB.
      'typescript',
    ],
    // Some dependencies are CommonJS and require() Node's built-ins; an ES module has no `require`, so
    // the bundle makes one.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    logLevel: 'warning',
  };
}
