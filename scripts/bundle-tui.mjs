// Bundles the TUI (dist/tui/tui-entry.js) with Ink, React and Yoga into one file,
// dist/tui/tui-entry.bundle.js, which the CLI loads on a terminal (src/cli/load-tui.ts).
//
// Why: loaded module by module, Ink's tree (React's reconciler, Yoga, ~100 files, CommonJS ones parsed
// twice by Node's ESM loader) cost ~600 ms at start-up; one minified file with React's production build
// loads in a fraction of that (bench/tui-startup.mjs, target ≤ +150 ms over `--no-tui`).
//
// Our own modules outside dist/tui/ stay external, so the TUI shares them (errors, the compiler, the
// answer channel) with the rest of the CLI instead of carrying second copies.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { fastPathSource, narrowCodePoints, narrowLinePattern } from './narrow-width-class.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tuiDir = path.join(root, 'dist', 'tui');

/** Ink imports its React DevTools bridge only when DEV=true; the bundle has no DevTools, so it is empty. */
const noDevtools = {
  name: 'no-ink-devtools',
  setup(b) {
    b.onResolve({ filter: /\/devtools\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}ink${path.sep}`)
        ? { path: 'ink-devtools', namespace: 'empty' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: 'export {};' }));
  },
};

/**
 * Yoga decodes its embedded WebAssembly with `fetch` on a data: URL whenever `fetch` exists, which makes
 * Node load its whole fetch implementation (~100 ms) for nothing; its own base64 decoder does the same job.
 */
const yogaWithoutFetch = {
  name: 'yoga-without-fetch',
  setup(b) {
    b.onLoad({ filter: /yoga-wasm-base64-esm\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const patched = text.replace('"function"!=typeof fetch', 'true');
      if (patched === text) throw new Error(`${args.path}: Yoga's wasm loader changed; revisit this patch`);
      return { contents: patched, loader: 'js' };
    });
  },
};

/**
 * string-width (two copies: Ink's and wrap-ansi's) gets a fast path for lines of one-column characters,
 * computed from that copy itself (scripts/narrow-width-class.mjs): the first frame no longer compiles an
 * emoji expression to measure a box border (~60 ms).
 */
const narrowStringWidth = {
  name: 'narrow-string-width',
  setup(b) {
    b.onLoad({ filter: /[\\/]string-width[\\/]index\.js$/ }, async (args) => {
      const text = readFileSync(args.path, 'utf8');
      const renamed = text.replace(/export default function stringWidth\(/, 'function slowWidth(');
      if (renamed === text || !/^import stripAnsi from 'strip-ansi';$/m.test(text)) {
        throw new Error(`${args.path}: string-width changed; revisit its fast path`);
      }
      const { default: stringWidth } = await import(pathToFileURL(args.path).href);
      const pattern = narrowLinePattern(narrowCodePoints(stringWidth));
      return {
        contents: renamed + fastPathSource(pattern),
        loader: 'js',
        resolveDir: path.dirname(args.path),
      };
    });
  },
};

/**
 * After unmounting, Ink's last React commit still calls its throttled render, whose timer keeps the
 * process alive one more frame (~34 ms) after the TUI closed, to render nothing; an unmounted Ink skips it.
 */
const inkNoRenderAfterUnmount = {
  name: 'ink-no-render-after-unmount',
  setup(b) {
    b.onLoad({ filter: /[\\/]ink[\\/]build[\\/]ink\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const hook = 'this.rootNode.onRender = () => {';
      const patched = text.replace(hook, `${hook}\n                if (this.isUnmounted) return;`);
      if (patched === text) throw new Error(`${args.path}: Ink's render hook changed; revisit this patch`);
      return { contents: patched, loader: 'js' };
    });
  },
};

/**
 * Imports that leave dist/tui/ (our other modules) stay imports, rewritten relative to the bundle, which
 * sits in dist/tui/ itself; imports inside dist/tui/ are bundled.
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

await build({
  entryPoints: [path.join(tuiDir, 'tui-entry.js')],
  outfile: path.join(tuiDir, 'tui-entry.bundle.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  legalComments: 'linked',
  define: { 'process.env.NODE_ENV': '"production"' },
  // Some of Ink's dependencies are CommonJS and call require(); ESM has none, so give the bundle one.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  plugins: [noDevtools, yogaWithoutFetch, narrowStringWidth, inkNoRenderAfterUnmount, ourModulesExternal],
  logLevel: 'warning',
});
